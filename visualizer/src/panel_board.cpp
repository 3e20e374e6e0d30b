// Board panel: the position at the cursor, drawn square by square, with the
// move being searched (blue), the move just scored (orange), the call's best
// move so far (green), the victim, the e.p. square and the castling rook.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "colours.h"
#include "panels.h"
#include "umax/types.h"

namespace umax::viz {

namespace {

/// The UTF-8 chess glyph of a piece code: the filled (black) set, which the
/// board colours itself; `outline` gives the white set's outline glyph.
const char* glyph(int piece, bool outline) {
  // By piece type: 0-2 a pawn, then knight, king, bishop, rook, queen (U+2654.. white, U+265A.. black).
  static const char* const kWhiteSet[] = {"\u2659", "\u2659", "\u2659", "\u2658",
                                          "\u2654", "\u2657", "\u2656", "\u2655"};
  static const char* const kBlackSet[] = {"\u265F", "\u265F", "\u265F", "\u265E",
                                          "\u265A", "\u265D", "\u265C", "\u265B"};
  return (outline ? kWhiteSet : kBlackSet)[typeOf(piece)];
}

struct BoardGeometry {
  ImVec2 origin;
  float cell;
  ImVec2 corner(int sq) const {
    return ImVec2(origin.x + fileOf(sq) * cell, origin.y + (8 - rankOf(sq)) * cell);
  }
  ImVec2 centre(int sq) const {
    ImVec2 c = corner(sq);
    return ImVec2(c.x + cell / 2, c.y + cell / 2);
  }
};

void drawPiece(ImDrawList* draw, ImFont* font, const BoardGeometry& g, int sq, int piece, float scale,
               ImU32 tint, ImVec2 offset = ImVec2(0, 0)) {
  const float size = g.cell * scale;
  const char* filled = glyph(piece, false);
  const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0, filled);
  const ImVec2 c = g.corner(sq);
  const ImVec2 pos(c.x + offset.x + (g.cell * scale - extent.x) / 2 + g.cell * (1 - scale) / 2,
                   c.y + offset.y + (g.cell * scale - extent.y) / 2 + g.cell * (1 - scale) / 2);
  const bool white = (piece & kWhite) != 0;
  if (tint != 0) {
    draw->AddText(font, size, pos, tint, filled);
    return;
  }
  if (white) {
    draw->AddText(font, size, pos, IM_COL32(255, 255, 250, 255), filled);
    draw->AddText(font, size, pos, IM_COL32(20, 20, 20, 255), glyph(piece, true));
  } else {
    draw->AddText(font, size, pos, IM_COL32(15, 15, 15, 255), filled);
  }
}

void drawArrow(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length < 1) return;
  const float ux = dx / length, uy = dy / length;
  const float head = thickness * 3.2f;
  const ImVec2 base(b.x - ux * head, b.y - uy * head);
  draw->AddLine(a, base, colour, thickness);
  draw->AddTriangleFilled(b, ImVec2(base.x - uy * head * 0.6f, base.y + ux * head * 0.6f),
                          ImVec2(base.x + uy * head * 0.6f, base.y - ux * head * 0.6f), colour);
}

/// Room left of the board for the rank digits and below it for the file letters.
constexpr float kLabelMargin = 14;

/// The deepest frame whose move is on the board: the move being searched now (null: none).
const trace::Frame* frameOfMoveOnBoard(const std::vector<trace::Frame>& stack) {
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (it->moveOnBoard) return &*it;
  return nullptr;
}

/// The line above the board: the ply and the side to move, or where the search stands.
void drawHeading(const trace::SearchState& state, const trace::Frame* top, bool compact) {
  // On a phone the heading wraps rather than run off the panel's edge.
  if (compact) ImGui::PushTextWrapPos(0.0f);
  // While the call's move is on the board, the board shows the position after it.
  if (top && top->moveOnBoard)
    ImGui::Text("ply %d, %s's move on the board, node count %llu", top->ply, sideName(top->call.side),
                static_cast<unsigned long long>(state.nodes()));
  else if (top)
    ImGui::Text("ply %d, %s to move, node count %llu", top->ply, sideName(top->call.side),
                static_cast<unsigned long long>(state.nodes()));
  else
    ImGui::Text(state.finished() ? "search finished: score %s" : "before the root call%s",
                state.finished() ? scoreText(state.rootScore()).c_str() : "");
  if (compact) ImGui::PopTextWrapPos();
}

/// The largest board of whole-pixel squares that fits the panel above its caption: the caption's
/// lines wrapped at the panel's width (at least three), so that a long narration is not cut.
BoardGeometry fitBoard(const std::string& caption) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float captionHeight = ImGui::CalcTextSize(caption.c_str(), nullptr, false, avail.x).y;
  const float footer = std::max(ImGui::GetTextLineHeightWithSpacing() * 3.2f,
                                captionHeight + ImGui::GetStyle().ItemSpacing.y * 2 + 2);
  const float cell =
      std::floor(std::max(8.0f, std::min(avail.x - kLabelMargin, avail.y - footer - kLabelMargin) / 8));
  return {ImVec2(ImGui::GetCursorScreenPos().x + kLabelMargin, ImGui::GetCursorScreenPos().y), cell};
}

/// Fills the square `sq` with `colour`.
void fillSquare(ImDrawList* draw, const BoardGeometry& g, int sq, ImU32 colour) {
  const ImVec2 c = g.corner(sq);
  draw->AddRectFilled(c, ImVec2(c.x + g.cell, c.y + g.cell), colour);
}

/// The 64 squares, light and dark.
void drawSquares(ImDrawList* draw, const BoardGeometry& g) {
  for (int rank = 8; rank >= 1; --rank)
    for (int file = 0; file < 8; ++file)
      fillSquare(draw, g, makeSquare(file, rank),
                 (file + rank) % 2 == 0 ? colours::kDarkSquare : colours::kLightSquare);
}

/// The file letters below the board and the rank digits left of it.
void drawCoordinates(ImDrawList* draw, const BoardGeometry& g) {
  const float cell = g.cell;
  for (int i = 0; i < 8; ++i) {
    char text[2] = {static_cast<char>('a' + i), 0};
    draw->AddText(ImVec2(g.origin.x + i * cell + cell / 2 - 3, g.origin.y + 8 * cell),
                  IM_COL32(200, 200, 200, 255), text);
    text[0] = static_cast<char>('8' - i);
    draw->AddText(ImVec2(g.origin.x - kLabelMargin + 2, g.origin.y + i * cell + cell / 2 - 7),
                  IM_COL32(200, 200, 200, 255), text);
  }
}

/// The from- and to-squares of the move being searched, yellow and orange.
void drawMoveSquares(ImDrawList* draw, const BoardGeometry& g, const trace::MoveRecord& move) {
  for (int sq : {move.from, move.to})
    if (isOnBoard(sq)) fillSquare(draw, g, sq, sq == move.from ? colours::kFrom : colours::kTo);
}

/// Every piece on the board.
void drawPieces(ImDrawList* draw, ImFont* font, const BoardGeometry& g, const Board& board) {
  for (int sq = 0; sq < 128; ++sq)
    if (isOnBoard(sq) && board[static_cast<std::size_t>(sq)] != 0)
      drawPiece(draw, font, g, sq, board[static_cast<std::size_t>(sq)], 0.86f, 0);
}

/// The piece the move captures, small and red in the corner of its square, which gets a red frame.
void drawVictim(ImDrawList* draw, ImFont* font, const BoardGeometry& g, const trace::MoveRecord& move) {
  if (move.victim == 0 || !isOnBoard(move.captureSquare)) return;
  const float cell = g.cell;
  drawPiece(draw, font, g, move.captureSquare, move.victim, 0.42f, colours::kVictim,
            ImVec2(cell * 0.29f, -cell * 0.29f));
  const ImVec2 c = g.corner(move.captureSquare);
  draw->AddRect(c, ImVec2(c.x + cell, c.y + cell), colours::kVictim, 0, 0, 2.5f);
}

/// E, the square a pawn or castling king just passed, as a ring (0 and -128 name no square).
void drawEpSquare(ImDrawList* draw, const BoardGeometry& g, int epSquare) {
  if (isOnBoard(epSquare) && epSquare > 0 && epSquare < 128)
    draw->AddCircle(g.centre(epSquare), g.cell * 0.22f, colours::kEpSquare, 16, 3);
}

/// The arrows of the view model (umax::trace::viewState), each coloured and as thick as its kind.
void drawArrows(ImDrawList* draw, const BoardGeometry& g, const std::vector<trace::ArrowView>& arrows) {
  const float cell = g.cell;
  // Each kind's colour and thickness (at least `least` pixels, else a share of a square).
  struct Style {
    const char* what;
    ImU32 colour;
    float least, perCell;
  };
  static constexpr Style kStyles[] = {
      {"searched", colours::kSearched, 2.0f, 9},   {"rook", colours::kRook, 2.0f, 12},
      {"scored", colours::kScored, 2.5f, 8},       {"chosen", colours::kBest, 2.0f, 9},
      {"king capture", colours::kVictim, 2.5f, 8}, {"", colours::kBest, 1.5f, 14}};  // "best" and any other
  for (const trace::ArrowView& arrow : arrows) {
    const Style* style = kStyles;
    while (*style->what && arrow.what != style->what) ++style;
    const float thickness = std::max(style->least, cell / style->perCell);
    ImVec2 from = g.centre(arrow.from), to = g.centre(arrow.to);
    if (arrow.what == "rook" && rankOf(arrow.from) == rankOf(arrow.to)) {
      // The rook moves along the king's rank, over the king's blue arrow: drawn a quarter square
      // nearer the board's edge, so that both read.
      const float shift = (rankOf(arrow.from) <= 4 ? 1.0f : -1.0f) * cell * 0.27f;
      from.y += shift;
      to.y += shift;
    }
    drawArrow(draw, from, to, style->colour, thickness);
  }
}

/// The text under the board. On the desktop, the caption (the Timeline says the narration). In the
/// compact layout (a phone) the two are one block here, and the Timeline under the Board's tab says
/// only the event's number: the narration, then what the caption adds to it (its "; "-joined parts
/// the narration does not say), so that no sentence shows twice on the small screen.
std::string textUnderBoard(const App& app, const trace::ViewState& view) {
  const std::string& caption = view.caption;
  const std::string& said = view.narration;
  if (!app.compact || said.empty() || caption.starts_with(said)) return caption;
  std::string text = said;
  for (std::size_t start = 0; start <= caption.size();) {
    std::size_t end = caption.find("; ", start);
    if (end == std::string::npos) end = caption.size();
    const std::string part = caption.substr(start, end - start);
    if (!part.empty() && said.find(part) == std::string::npos) text += "; " + part;
    start = end + 2;
  }
  return text;
}

/// The caption under the board; hovering it gives each arrow's reason. Its rectangle goes into the
/// layout dump ("text Board / caption"), where the smoke test checks that the panel holds it all.
void drawCaption(App& app, const trace::ViewState& view, const std::string& text) {
  ImGui::TextWrapped("%s", text.c_str());
  const ImVec2 low = ImGui::GetItemRectMin(), high = ImGui::GetItemRectMax();
  app.layout.push_back({"Board / caption", low.x, low.y, high.x - low.x, high.y - low.y, true});
  if (ImGui::IsItemHovered()) {
    std::string why;
    for (const trace::ArrowView& arrow : view.arrows)
      why += arrow.what + " arrow " + squareName(arrow.from) + squareName(arrow.to) + ": " + arrow.why + "\n";
    tooltip(why.empty() ? "no arrows" : why);
  }
}

}  // namespace

void drawBoardPanel(App& app) {
  const PanelWindow panel(app, "Board", {0, 19, 360, 340});
  if (!panel.showsTrace("No trace open. File > Open a trace, or File > Record a search.")) return;
  const trace::SearchState& state = app.replay().state();
  const trace::Frame* top = state.stack().empty() ? nullptr : &state.stack().back();
  const trace::Frame* mover = frameOfMoveOnBoard(state.stack());
  drawHeading(state, top, app.compact);

  // Drawn in layers: squares, coordinates, the move's squares, pieces, victim, e.p. ring, arrows.
  const trace::ViewState& view = app.view();
  const std::string caption = textUnderBoard(app, view);
  const BoardGeometry g = fitBoard(caption);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImFont* font = app.pieceFont ? app.pieceFont : ImGui::GetFont();
  drawSquares(draw, g);
  drawCoordinates(draw, g);
  if (mover) drawMoveSquares(draw, g, mover->move);
  drawPieces(draw, font, g, state.board());
  if (mover) drawVictim(draw, font, g, mover->move);
  if (top) drawEpSquare(draw, g, top->call.epSquare);
  drawArrows(draw, g, view.arrows);
  ImGui::Dummy(ImVec2(kLabelMargin + 8 * g.cell, 8 * g.cell + kLabelMargin + 2));
  drawCaption(app, view, caption);
}

}  // namespace umax::viz
