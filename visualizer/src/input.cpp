// Input: counting input events (so an idle window sleeps instead of
// redrawing) and the keyboard shortcuts.
#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "ui.h"

namespace umax::viz {

namespace {

/// Input events since the last frame, counted by the callbacks countAllInput installs.
int inputEvents = 0;
/// Frames still to draw after the last input: ImGui settles hovers, clicks and popups in them.
int settleFrames = 0;

bool keyPressed(int key) { return ImGui::IsKeyPressed(key, true); }

}  // namespace

void countAllInput(GLFWwindow* window) {
  glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { ++inputEvents; });
  glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { ++inputEvents; });
  glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { ++inputEvents; });
  glfwSetKeyCallback(window, [](GLFWwindow*, int, int, int, int) { ++inputEvents; });
  glfwSetCharCallback(window, [](GLFWwindow*, unsigned) { ++inputEvents; });
  glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { ++inputEvents; });
  glfwSetCursorEnterCallback(window, [](GLFWwindow*, int) { ++inputEvents; });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow*, int, int) { ++inputEvents; });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { ++inputEvents; });
}

void waitForNextFrame(bool continuous) {
  if (continuous || settleFrames > 0) {
    glfwPollEvents();
    if (settleFrames > 0) --settleFrames;
  } else {
    glfwWaitEventsTimeout(1.0);
  }
  if (inputEvents > 0) {
    inputEvents = 0;
    settleFrames = 3;
  }
}

void handleKeys(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (keyPressed(GLFW_KEY_F1) || (io.KeyShift && keyPressed(GLFW_KEY_SLASH) && !io.WantTextInput))
    app.showHelp = !app.showHelp;
  if (io.KeyCtrl && keyPressed(GLFW_KEY_O)) app.showOpen = true;
  if (io.KeyCtrl && keyPressed(GLFW_KEY_R)) app.showRecord = true;
  if (io.KeyCtrl && keyPressed(GLFW_KEY_Q)) app.quitRequested = true;
  if (io.WantTextInput || io.KeyCtrl) return;
  if (keyPressed(GLFW_KEY_ESCAPE)) app.showHelp = false;
  if (keyPressed(GLFW_KEY_L)) app.showLegend = !app.showLegend;
  if (!app.hasTrace()) return;
  if (keyPressed(GLFW_KEY_RIGHT)) app.stepForward();
  if (keyPressed(GLFW_KEY_LEFT)) app.stepBack();
  if (keyPressed(GLFW_KEY_DOWN)) app.stepOver();
  if (keyPressed(GLFW_KEY_UP)) app.stepOut();
  if (keyPressed(GLFW_KEY_HOME)) app.seek(0);
  if (keyPressed(GLFW_KEY_END)) app.seek(app.eventCount());
  const uint64_t page = std::max<uint64_t>(1, app.eventCount() / 100);
  if (keyPressed(GLFW_KEY_PAGE_DOWN)) app.seek(app.cursor() + page);
  if (keyPressed(GLFW_KEY_PAGE_UP)) app.seek(app.cursor() - std::min(app.cursor(), page));
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) app.playing = !app.playing;
  if (keyPressed(GLFW_KEY_C)) app.nextCutoff();
  if (keyPressed(GLFW_KEY_H)) app.nextHashHit();
  if (keyPressed(GLFW_KEY_I)) io.KeyShift ? app.previousIteration() : app.nextIteration();
  if (keyPressed(GLFW_KEY_F)) app.followCursor = !app.followCursor;
  if (keyPressed(GLFW_KEY_EQUAL) || keyPressed(GLFW_KEY_KP_ADD))
    app.speed = std::min(200000.0f, app.speed * 2);
  if (keyPressed(GLFW_KEY_MINUS) || keyPressed(GLFW_KEY_KP_SUBTRACT))
    app.speed = std::max(1.0f, app.speed / 2);
}

}  // namespace umax::viz
