// The colours that carry meaning, shared by the panels that draw them and
// the legend that explains them.
#pragma once

#include <imgui.h>

namespace umax::viz::colours {

// Board.
constexpr ImU32 kLightSquare = IM_COL32(238, 216, 180, 255);
constexpr ImU32 kDarkSquare = IM_COL32(176, 134, 98, 255);
constexpr ImU32 kFrom = IM_COL32(250, 220, 60, 150);      ///< from-square of the move on the board
constexpr ImU32 kTo = IM_COL32(250, 150, 30, 170);        ///< its to-square
constexpr ImU32 kSearched = IM_COL32(30, 90, 200, 210);   ///< the move on the board (blue arrow)
constexpr ImU32 kScored = IM_COL32(235, 120, 20, 235);    ///< the move just scored (orange arrow)
constexpr ImU32 kBest = IM_COL32(40, 160, 60, 220);       ///< the call's best move so far (green arrow)
constexpr ImU32 kVictim = IM_COL32(200, 30, 30, 255);     ///< the piece the move captures
constexpr ImU32 kEpSquare = IM_COL32(120, 40, 200, 230);  ///< E, the e.p. / passed square
constexpr ImU32 kRook = IM_COL32(20, 150, 160, 230);      ///< the rook's part of a castling

// Timeline.
constexpr ImU32 kCutoffMark = IM_COL32(220, 70, 60, 200);
constexpr ImU32 kHashHitMark = IM_COL32(70, 200, 90, 200);
constexpr ImU32 kIterationMark = IM_COL32(240, 240, 120, 230);
constexpr ImU32 kIterationLabel = IM_COL32(240, 240, 120, 255);  ///< "d4" above its line
constexpr ImU32 kTimelineBar = IM_COL32(32, 34, 40, 255);        ///< the scrubber's background
constexpr ImU32 kCursor = IM_COL32(90, 170, 255, 255);
constexpr ImU32 kCompareRow =
    IM_COL32(90, 170, 255, 70);  ///< the Compare panel's row of the cursor's iteration

// Search tree rows (text colours) and the open calls' row backgrounds.
inline const ImVec4 kRowText(0.85f, 0.85f, 0.85f, 1);
inline const ImVec4 kRowHashCut(0.45f, 0.9f, 0.5f, 1);
inline const ImVec4 kRowCutoff(1.0f, 0.55f, 0.45f, 1);
inline const ImVec4 kIterationRow(0.94f, 0.94f, 0.47f, 1);  // the timeline's iteration yellow
constexpr float kRowNotReachedAlpha = 0.45f;
inline const ImVec4 kRowCurrent(0.2f, 0.45f, 0.85f, 0.9f);
inline const ImVec4 kRowOpen(0.2f, 0.35f, 0.6f, 0.55f);

// Source listings: the lines of the event just applied.
constexpr ImU32 kSourceLit = IM_COL32(60, 110, 200, 110);

// Hash table heatmap.
constexpr ImU32 kHashFilled = IM_COL32(25, 85, 240, 255);
constexpr ImU32 kHashStored = IM_COL32(225, 25, 40, 255);
constexpr ImU32 kHashWindow = IM_COL32(255, 255, 255, 255);

}  // namespace umax::viz::colours
