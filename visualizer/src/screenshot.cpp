// --screenshot and --layout-dump: the frame as a PNG and the panels' places.
#define GLFW_INCLUDE_NONE
#include <GL/gl.h>
#include <stb_image_write.h>  // libstb-dev; the implementation is in libstb

#include <cstdio>
#include <exception>
#include <ostream>

#include "headless.h"
#include "umax/replacing_file.h"

namespace umax::viz {

// The PNG goes to a temporary file beside `path`, renamed over it once
// whole (ReplacingFile): a full disk or a kill leaves what was there.
std::string writeScreenshot(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);
  try {
    ReplacingFile file(path);
    const auto write = [](void* context, void* data, int size) {
      static_cast<std::ostream*>(context)->write(static_cast<const char*>(data), size);
    };
    if (stbi_write_png_to_func(write, &file.stream(), width, height, 3, pixels.data(), width * 3) == 0)
      return "cannot write '" + path + "': the PNG could not be encoded";
    file.commit();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

void printLayout(const App& app) {
  for (const PanelRect& rect : app.layout)
    std::printf("%s %s %.0f %.0f %.0f %.0f\n", rect.text ? "text" : "panel", rect.name.c_str(), rect.x,
                rect.y, rect.width, rect.height);
}

}  // namespace umax::viz
