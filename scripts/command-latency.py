#!/usr/bin/env python3
"""How fast umax-readable answers the commands a GUI expects at once, at random moments of a game.

Drives the engine over its pipes, as a GUI does, and prints the reply times (no pass or fail:
a measurement, not a test). Three sessions run one after the other:

- CECP play: the engine plays both sides (`go` after each of its moves) at `st ST`; during each
  think, at a random moment, one probe: `ping N` (to `pong N`) or, now and then, `?` (to `move`);
  and right after some of its moves `usermove`-free probes: `ping N` as soon as `move` came, and
  `go` followed at once by `ping N` (the think's set-up).
- CECP analysis: `analyze`, then `.` (to `stat01`) and `ping N` at random moments, and now and then
  a move (`usermove`, the analysis starting again) followed at once by `.` or `ping`.
- UCI: `position startpos moves ...` and `go movetime MS` (the engine's own moves, both sides),
  `isready` (to `readyok`) at a random moment of the think, now and then `stop` (to `bestmove`),
  and `isready` right after `bestmove`.

  scripts/command-latency.py [--bin DIR] [--seconds S] [--hogs N] [--st ST] [--seed K]

--hogs N starts N busy processes (each a `yes > /dev/null`) beside the engine for the whole
measurement, and ends them (by their process ids) at the end. Prints, per probe kind: count,
median, 90th percentile, max, and how many took over 50 ms; with --raw, every reply time. With
LATENCY_DEBUG=1 in the environment, every line sent and received, the engine's stderr and each
reply over 50 ms go to stderr.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import queue


class Engine:
    """An engine process whose output lines are collected by a reader thread, each with its time."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=None if os.environ.get("LATENCY_DEBUG") else subprocess.DEVNULL, bufsize=0)
        self.lines = queue.Queue()
        self.held = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.process.stdout:
            text = raw.decode(errors="replace").rstrip("\n")
            if os.environ.get("LATENCY_DEBUG"):
                print("<", text, file=sys.stderr)
            self.lines.put((time.monotonic(), text))
        self.lines.put((time.monotonic(), None))

    def send(self, *lines):
        """Writes the lines at once; returns the time they were written."""
        data = "".join(line + "\n" for line in lines).encode()
        at = time.monotonic()
        if os.environ.get("LATENCY_DEBUG"):
            print(">", " | ".join(lines), file=sys.stderr)
        self.process.stdin.write(data)
        self.process.stdin.flush()
        return at

    def await_line(self, prefix, timeout=60.0):
        """The time and text of the next line starting with prefix, or one of a tuple of prefixes.
        Lines passed over are kept (the last 500) for the next awaits: a move that came before
        the pong awaited is still found afterwards."""
        prefixes = prefix if isinstance(prefix, tuple) else (prefix,)
        for index, (at, line) in enumerate(self.held):
            if line.startswith(prefixes):
                del self.held[index]
                return at, line
        end = time.monotonic() + timeout
        while True:
            try:
                at, line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise SystemExit(f"command-latency: no {prefixes} from the engine within {timeout} s")
            if line is None:
                raise SystemExit(f"command-latency: the engine ended while {prefixes} was awaited")
            if line.startswith(prefixes):
                return at, line
            self.held.append((at, line))
            del self.held[:-500]

    def forget(self):
        """Drops the lines passed over so far (a new think: its lines are awaited afresh)."""
        while not self.lines.empty():
            self.held.append(self.lines.get())
        self.held.clear()

    def quit(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# What ends a CECP think: our move, or the game's result when there is no move to make.
MOVE_OR_RESULT = ("move ", "1-0", "0-1", "1/2-1/2")


def milliseconds(start, end):
    return (end - start) * 1000.0


class Results:
    def __init__(self):
        self.times = {}

    def add(self, kind, ms):
        self.times.setdefault(kind, []).append(ms)
        if os.environ.get("LATENCY_DEBUG") and ms > 50:
            print(f"SLOW {kind}: {ms:.1f} ms", file=sys.stderr)

    def report(self, raw):
        print(f"{'probe':58} {'count':>5} {'median':>8} {'90%':>8} {'max':>8} {'>50 ms':>7}")
        for kind, values in self.times.items():
            ordered = sorted(values)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            over = sum(1 for value in values if value > 50)
            print(f"{kind:58} {len(values):5d} {statistics.median(values):8.1f} {p90:8.1f} "
                  f"{ordered[-1]:8.1f} {over:7d}")
            if raw:
                print("  " + " ".join(f"{value:.1f}" for value in values))


def cecp_play(engine_path, deadline, st, results, rng):
    engine = Engine([engine_path, "--xboard"])
    engine.send("xboard", "protover 2")
    engine.await_line("feature")
    number = 0
    while time.monotonic() < deadline:
        number += 1
        engine.send("new", "force", f"st {st}", "post", f"ping {number}")
        engine.await_line(f"pong {number}")
        for _ply in range(60):
            if time.monotonic() >= deadline:
                break
            number += 1
            choice = rng.random()
            if choice < 0.15:
                # go, then ping at once: the think's set-up
                sent = engine.send("go", f"ping {number}")
                at, _ = engine.await_line(f"pong {number}")
                results.add("CECP ping sent with go", milliseconds(sent, at))
                _, move = engine.await_line(MOVE_OR_RESULT)
            else:
                engine.send("go")
                time.sleep(rng.uniform(0.0, st * 1.1))
                if choice < 0.3:
                    sent = engine.send("?")
                    at, move = engine.await_line(MOVE_OR_RESULT)
                    if at >= sent:  # else the think had ended before the ? was sent
                        results.add("CECP ? to move", milliseconds(sent, at))
                else:
                    sent = engine.send(f"ping {number}")
                    at, line = engine.await_line(f"pong {number}")
                    results.add("CECP ping at a random moment of a think", milliseconds(sent, at))
                    _, move = engine.await_line(MOVE_OR_RESULT)
            if not move.startswith("move "):
                break  # the game is over: a new one
            if rng.random() < 0.3:
                # ping as soon as the move came (our move's check and the locks' clearing follow it)
                number += 1
                sent = engine.send(f"ping {number}")
                at, _ = engine.await_line(f"pong {number}")
                results.add("CECP ping right after our move", milliseconds(sent, at))
            # a game that ended after our move (a result line) starts again
            ended = any(line.startswith(MOVE_OR_RESULT[1:]) for _, line in engine.held)
            engine.forget()
            if ended:
                break
            engine.send("force")
    engine.quit()


def cecp_analysis(engine_path, deadline, results, rng):
    engine = Engine([engine_path, "--xboard"])
    engine.send("xboard", "protover 2")
    engine.await_line("feature")
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]
    number = 0
    engine.send("new", "force", "post", "analyze")
    played = 0
    while time.monotonic() < deadline:
        time.sleep(rng.uniform(0.0, 1.5))
        number += 1
        choice = rng.random()
        if choice < 0.4:
            sent = engine.send(".")
            at, _ = engine.await_line("stat01")
            results.add("CECP . to stat01 in analysis", milliseconds(sent, at))
        elif choice < 0.8:
            sent = engine.send(f"ping {number}")
            at, _ = engine.await_line(f"pong {number}")
            results.add("CECP ping in analysis", milliseconds(sent, at))
        else:
            if played == len(moves):
                engine.send("exit", "new", "force", "post", "analyze")
                played = 0
            move = moves[played]
            played += 1
            if rng.random() < 0.5:
                sent = engine.send(f"usermove {move}", ".")
                at, _ = engine.await_line("stat01")
                results.add("CECP . right after a move in analysis", milliseconds(sent, at))
            else:
                sent = engine.send(f"usermove {move}", f"ping {number}")
                at, _ = engine.await_line(f"pong {number}")
                results.add("CECP ping right after a move in analysis", milliseconds(sent, at))
    engine.send("exit")
    engine.quit()


def uci_play(engine_path, deadline, st, results, rng):
    engine = Engine([engine_path, "--uci"])
    engine.send("uci")
    engine.await_line("uciok")
    while time.monotonic() < deadline:
        engine.send("ucinewgame", "isready")
        engine.await_line("readyok")
        moves = []
        for _ply in range(60):
            if time.monotonic() >= deadline:
                break
            position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
            engine.send(position, f"go movetime {int(st * 1000)}")
            time.sleep(rng.uniform(0.0, st * 1.1))
            if rng.random() < 0.2:
                sent = engine.send("stop")
                at, best = engine.await_line("bestmove")
                if at >= sent:  # else the think had ended before the stop was sent
                    results.add("UCI stop to bestmove", milliseconds(sent, at))
            else:
                sent = engine.send("isready")
                at, _ = engine.await_line("readyok")
                results.add("UCI isready at a random moment of a think", milliseconds(sent, at))
                _, best = engine.await_line("bestmove")
            if rng.random() < 0.3:
                sent = engine.send("isready")
                at, _ = engine.await_line("readyok")
                results.add("UCI isready right after bestmove", milliseconds(sent, at))
            move = best.split()[1]
            if move == "0000":
                break
            moves.append(move)
    engine.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--bin", default=os.path.join(here, "..", "build", "bin"))
    parser.add_argument("--seconds", type=float, default=60, help="seconds for each of the three sessions [60]")
    parser.add_argument("--hogs", type=int, default=0, help="busy processes beside the engine [0]")
    parser.add_argument("--st", type=float, default=1.0, help="seconds per move of the thinks [1]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--raw", action="store_true", help="print every reply time too")
    args = parser.parse_args()
    engine = os.path.join(args.bin, "umax-readable")
    if not os.access(engine, os.X_OK):
        print(f"command-latency: {engine} not found (build it first)", file=sys.stderr)
        return 2
    if args.seconds <= 0 or args.st <= 0 or args.hogs < 0:
        print("command-latency: --seconds and --st must be positive, --hogs not negative", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.hogs)]
    results = Results()
    try:
        load = os.getloadavg()[0]
        cecp_play(engine, time.monotonic() + args.seconds, args.st, results, rng)
        cecp_analysis(engine, time.monotonic() + args.seconds, results, rng)
        uci_play(engine, time.monotonic() + args.seconds, args.st, results, rng)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(f"umax-readable reply times (ms), {args.hogs} CPU hog(s) beside it, load {load:.1f} at the start"
          f" and {os.getloadavg()[0]:.1f} at the end (1-minute average), {os.cpu_count()} cores")
    results.report(args.raw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
