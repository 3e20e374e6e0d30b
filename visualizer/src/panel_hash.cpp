// Hash table panel: a downsampled heatmap of the 16M-slot table (filled
// slots in blue, recent stores in red), the probe window of the current
// call with each slot's entry at the cursor, and what the current event did
// to the table (hit, miss, full window, store, replace, refused store).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "panels.h"
#include "umax/engine.h"
#include "umax/search_rules.h"

namespace umax::viz {

namespace {

constexpr int kGrid = 64;  // 64 x 64 = HashHistory::kCells

std::string entryText(const HashEntry& entry) {
  if (entry.lock == 0) return "empty";
  char buffer[96];
  const int from = static_cast<uint8_t>(entry.from);
  // X == Y (both a8 = 0): no best move stored (none beat the stand pat, or none was searched).
  const bool noMove = bestMoveSquare(from) == bestMoveSquare(entry.to);
  std::snprintf(buffer, sizeof buffer, "%08x %+6d %s%s d%d%s%s", static_cast<uint32_t>(entry.lock),
                entry.score, noMove ? "no move" : squareName(bestMoveSquare(from)).c_str(),
                noMove ? "" : squareName(bestMoveSquare(entry.to)).c_str(), entry.draft,
                (from & kLowerBoundBit) ? " lo" : "", (from & kUpperBoundBit) ? " up" : "");
  return buffer;
}

/// Beside the map: the slots filled and the store and probe counters, up to the cursor (the view
/// model's, not the whole trace's); `mapFilled` is the map's count, said while they are unknown.
void drawCounters(App& app, const trace::HashHistory& hash, uint64_t mapFilled) {
  using ull = unsigned long long;
  const trace::ViewState& view = app.view();
  const trace::HashCounters& c = view.hash;
  ImGui::BeginGroup();
  // The slots filled at the cursor: those locked before the search plus the stores into empty
  // slots (the map is the nearest snapshot before the cursor, and says so when hovered).
  if (view.hashCounted)
    ImGui::TextWrapped("%llu of %u slots filled at the cursor (%llu before the think)",
                       ull(hash.initialFilled() + c.storesNew), hash.slots(), ull(hash.initialFilled()));
  else
    ImGui::TextWrapped("map: %llu of %u slots filled (snapshot)", ull(mapFilled), hash.slots());
  ImGui::TextDisabled("blue: filled\nred: stores lately\nwhite box: this\ncall's probe slots");
  if (view.hashCounted) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("so far: %llu stores written, %llu refused", ull(c.storesWritten),
                       ull(c.storesRefused));
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      char text[1024];  // the text, ten numbers of at most 20 digits
      std::snprintf(
          text, sizeof text,
          "up to the cursor (the whole trace: %zu written)\nstores: %llu into empty slots, %llu updates of "
          "the same position, %llu over another position's entry, %llu refused (a deeper exact entry "
          "kept)\nprobes: %llu, %llu hits (%llu settled the window), %llu misses, %llu full windows",
          hash.storeCount(), ull(c.storesNew), ull(c.storesUpdated), ull(c.storesReplaced),
          ull(c.storesRefused), ull(c.probes), ull(c.hits), ull(c.hashCutoffs), ull(c.misses),
          ull(c.fullWindows));
      tooltip(text);
    }
  } else {
    ImGui::TextDisabled("counting the stores...");
  }
  ImGui::EndGroup();
}

void drawHeatmap(App& app, const trace::HashHistory& hash, const trace::Frame* frame) {
  const int snapshot = hash.snapshotAt(app.cursor());
  uint32_t peakOccupancy = 1, peakActivity = 1;
  for (int cell = 0; cell < trace::HashHistory::kCells; ++cell) {
    peakOccupancy = std::max(peakOccupancy, hash.occupancy(snapshot, cell));
    peakActivity = std::max(peakActivity, hash.activity(snapshot, cell));
  }
  const float size = std::floor(std::min(ImGui::GetContentRegionAvail().x * 0.42f, 100.0f) / kGrid * 4) / 4;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const auto corner = [&](int cell) {
    return ImVec2(origin.x + float(cell % kGrid) * size, origin.y + float(cell / kGrid) * size);
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  uint64_t filled = 0;
  for (int cell = 0; cell < trace::HashHistory::kCells; ++cell) {
    const uint32_t occupied = hash.occupancy(snapshot, cell);
    filled += occupied;
    const float o = std::sqrt(float(occupied) / float(peakOccupancy));
    const float a = std::sqrt(float(hash.activity(snapshot, cell)) / float(peakActivity));
    const ImVec2 p = corner(cell);
    draw->AddRectFilled(p, ImVec2(p.x + size, p.y + size),
                        IM_COL32(int(25 + 200 * a), int(25 + 60 * o), int(40 + 200 * o), 255));
  }
  if (frame && frame->probed) {
    const int cell = static_cast<int>(
        std::min<uint32_t>(frame->probe.firstSlot / hash.slotsPerCell(), trace::HashHistory::kCells - 1));
    const ImVec2 p = corner(cell);
    draw->AddRect(ImVec2(p.x - 2, p.y - 2), ImVec2(p.x + size + 2, p.y + size + 2),
                  IM_COL32(255, 255, 255, 255), 0, 0, 2);
  }
  ImGui::Dummy(ImVec2(size * kGrid, size * kGrid));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int column = std::clamp(int((mouse.x - origin.x) / size), 0, kGrid - 1);
    const int row = std::clamp(int((mouse.y - origin.y) / size), 0, kGrid - 1);
    const int cell = row * kGrid + column;
    char text[256];
    std::snprintf(
        text, sizeof text,
        "slots %u..%u: %u filled, %u stores in this stretch of the trace\n(snapshot after %llu events)",
        uint32_t(cell) * hash.slotsPerCell(), uint32_t(cell + 1) * hash.slotsPerCell() - 1,
        hash.occupancy(snapshot, cell), hash.activity(snapshot, cell),
        static_cast<unsigned long long>(hash.snapshotEvent(snapshot)));
    tooltip(text);
  }
  ImGui::SameLine();
  drawCounters(app, hash, filled);
}

/// What the event just applied did to the table.
void drawCurrentEvent(App& app) {
  const trace::Event* event = app.replay().lastEvent();
  if (!event) return;
  if (event->kind == trace::EventKind::kProbe && !usesHashTable(app.replay().state().variant())) {
    ImGui::TextColored(ImVec4(1, 0.7f, 0.4f, 1), "probe: NO TABLE, the dummy slot 0 (looks empty)");
  } else if (event->kind == trace::EventKind::kProbe) {
    const ProbeReport& probe = event->probe;
    const char* outcome = probe.outcome == ProbeOutcome::kHit ? "HIT: the slot holds this position"
                          : probe.outcome == ProbeOutcome::kMiss
                              ? "MISS: an empty slot, the position is new"
                              : "FULL: all 9 slots hold others, dummy slot 0";
    ImGui::TextColored(
        probe.outcome == ProbeOutcome::kHit ? ImVec4(0.4f, 0.95f, 0.5f, 1) : ImVec4(1, 0.7f, 0.4f, 1),
        "probe %s", outcome);
    if (probe.endsNode)
      ImGui::TextColored(ImVec4(0.4f, 0.95f, 0.5f, 1), "the stored score settles the window: return");
  } else if (event->kind == trace::EventKind::kStore) {
    const bool replace = event->before.lock != 0 && event->before.lock != event->after.lock;
    ImGui::TextColored(ImVec4(1, 0.5f, 0.45f, 1), "store into slot %u: %s", event->slot,
                       !event->written           ? "REFUSED (a deeper exact score is kept)"
                       : event->before.lock == 0 ? "new entry"
                       : replace                 ? "REPLACE another position"
                                                 : "update this position");
    ImGui::TextDisabled("before %s", entryText(event->before).c_str());
    ImGui::TextDisabled("after  %s", entryText(event->after).c_str());
  }
}

}  // namespace

void drawHashPanel(App& app) {
  const PanelWindow panel(app, "Hash table", {940, 329, 340, 345});
  if (!panel.showsTrace()) return;
  const auto& stack = app.replay().state().stack();
  const trace::Frame* frame = stack.empty() ? nullptr : &stack.back();
  if (!usesHashTable(app.replay().state().variant())) {
    // No map, no probe window: nothing is stored.
    ImGui::TextWrapped(
        "No hash table: this search is the Lab's without hash. Every node takes the "
        "dummy slot 0, which always looks empty, searches from scratch and stores nothing.");
    drawCurrentEvent(app);
    return;
  }
  const trace::HashHistory* hash = app.trace()->readyHash();
  if (!hash) {
    ImGui::TextUnformatted("Indexing the hash stores...");
    ImGui::ProgressBar(static_cast<float>(app.trace()->indexBuild.progress.load()));
  } else {
    drawHeatmap(app, *hash, frame);
  }
  drawCurrentEvent(app);
  if (frame && frame->probed && hash) {
    ImGui::Text("J %08x  Z %08x", frame->call.hashKey, frame->call.hashLock);
    ImGui::Text("probe slots from (k*E^J)&(U-9) = %u:", frame->probe.firstSlot);
    if (ImGui::BeginTable("window", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (int i = 1; i <= kProbeSlots; ++i) {
        const uint32_t slot = frame->probe.firstSlot + static_cast<uint32_t>(i);
        const HashEntry entry = hash->entryAt(slot, app.cursor());
        ImGui::TableNextRow();
        const bool used = slot == frame->probe.slot;
        if (used) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(40, 90, 160, 170));
        ImGui::TableNextColumn();
        ImGui::Text("%s%u", used ? "a>" : "  ", slot);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(static_cast<uint32_t>(entry.lock) == frame->call.hashLock && entry.lock ? "= Z"
                                                                                                       : "");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(entryText(entry).c_str());
      }
      ImGui::EndTable();
    }
    if (frame->probe.slot == 0) ImGui::TextDisabled("a = A[0], the dummy slot (window full)");
  }
}

}  // namespace umax::viz
