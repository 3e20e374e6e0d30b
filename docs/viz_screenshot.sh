#!/bin/sh
# viz_screenshot.sh UMAX_VIZ EXAMPLES_DIR NAME IMAGES_DIR SOURCE_DIR
# Renders the visualizer at the event a worked example chose (NAME.event)
# into IMAGES_DIR/NAME-viz.png; headless under xvfb-run when there is no
# display (xvfb comes with scripts/install-deps.sh). The legend window is
# hidden (--no-legend): it would cover panels the captions talk about.
set -e
viz=$1 examples=$2 name=$3 images=$4 source=$5
event=$(cat "$examples/$name.event")
# From the examples folder, so the window title names just the trace file.
cd "$examples"
if [ -n "${DISPLAY:-}" ]; then
  "$viz" "$name.umaxtrace" --event "$event" --screenshot "$images/$name-viz.png" --source-dir "$source" --no-legend > /dev/null
else
  xvfb-run -a "$viz" "$name.umaxtrace" --event "$event" --screenshot "$images/$name-viz.png" \
    --source-dir "$source" --no-legend > /dev/null
fi
test -s "$images/$name-viz.png" || { echo "viz_screenshot.sh: no screenshot for $name" >&2; exit 1; }
