// engines.cpp - the minimal and the readable build behind one interface.
#include "engines.h"

#include <algorithm>
#include <stdexcept>

#include "minimal_api.h"
#include "umax/session.h"

namespace umax {
namespace {

class MinimalEngine final : public AnyEngine {
 public:
  MinimalEngine() {
    if (instances_++ != 0) {
      --instances_;
      throw std::logic_error("only one minimal engine at a time: the original keeps its state in globals");
    }
    reset();
  }
  ~MinimalEngine() override { --instances_; }

  std::string_view name() const override { return "minimal"; }
  void reset() override { umaxm_reset_to_main_start(); }
  void setPosition(const Position& position) override {
    umaxm_clear_hash_table();
    setGameState(position);
  }
  void setGameState(const Position& position) override {
    umaxm_set_position(position.board.data(), position.side, position.epSquare, position.eval);
  }
  Position position() const override {
    Position position;
    umaxm_get_position(reinterpret_cast<signed char*>(position.board.data()), &position.side,
                       &position.epSquare, &position.eval);
    return position;
  }
  void clearHashTable() override { umaxm_clear_hash_table(); }
  void clearHashSlot(int32_t slot) override { umaxm_clear_hash_slot(slot); }
  void clearHashLock(int32_t slot) override { umaxm_clear_hash_lock(slot); }
  ThinkResult think(long budget) override {
    ThinkResult result;
    result.score = umaxm_think(budget, &result.from, &result.to, &result.nodes);
    return result;
  }
  void setVariant(const SearchVariant& variant) override {
    if (!variant.isDefault())
      throw std::invalid_argument(
          "the original (--engine minimal) has no switches: --without and --depth "
          "need --engine readable");
  }
  bool playMove(int from, int to) override { return umaxm_play_move(from, to) != 0; }
  bool checkMove(int from, int to) override { return umaxm_check_move(from, to) != 0; }
  HashEntry hashEntry(int32_t slot) const override {
    const umaxm_hash_entry& entry = umaxm_hash_table()[slot];
    return {entry.lock, entry.score, entry.from, entry.to, entry.draft};
  }
  void copyHashEntries(int32_t first, std::span<HashEntry> slots) const override {
    const umaxm_hash_entry* entry = umaxm_hash_table() + first;
    for (HashEntry& slot : slots) {
      slot = {entry->lock, entry->score, entry->from, entry->to, entry->draft};
      ++entry;
    }
  }
  int keyByte(int index) const override { return umaxm_key_table()[index]; }

 private:
  static inline int instances_ = 0;
};

class ReadableEngine final : public AnyEngine {
 public:
  ReadableEngine() : engine_(std::make_unique<Engine>()) {}
  std::string_view name() const override { return "readable"; }
  void reset() override {
    engine_ = std::make_unique<Engine>();
    engine_->setVariant(variant_);
  }
  void setPosition(const Position& position) override {
    engine_->clearHashTable();
    engine_->setPosition(position);
  }
  void setGameState(const Position& position) override { engine_->setPosition(position); }
  Position position() const override { return engine_->position(); }
  void clearHashTable() override { engine_->clearHashTable(); }
  void clearHashSlot(int32_t slot) override { engine_->clearHashSlot(slot); }
  void clearHashLock(int32_t slot) override { engine_->clearHashLock(slot); }
  ThinkResult think(long budget) override { return engine_->think(budget); }
  void setVariant(const SearchVariant& variant) override {
    variant_ = variant;
    engine_->setVariant(variant);
  }
  bool playMove(int from, int to) override { return engine_->playMove(from, to); }
  bool checkMove(int from, int to) override { return engine_->checkMove(from, to); }
  HashEntry hashEntry(int32_t slot) const override { return engine_->hashTable()[slot]; }
  void copyHashEntries(int32_t first, std::span<HashEntry> slots) const override {
    const auto table = engine_->hashTable().subspan(static_cast<std::size_t>(first), slots.size());
    std::copy(table.begin(), table.end(), slots.begin());
  }
  int keyByte(int index) const override { return engine_->keyTable()[index]; }

 private:
  std::unique_ptr<Engine> engine_;
  SearchVariant variant_;  // kept across reset()
};

}  // namespace

std::unique_ptr<AnyEngine> makeEngine(std::string_view build) {
  if (build == "minimal") return std::make_unique<MinimalEngine>();
  if (build == "readable") return std::make_unique<ReadableEngine>();
  throw std::invalid_argument("unknown engine '" + std::string(build) + "' (minimal or readable)");
}

void setUpGame(AnyEngine& engine, const std::string& fen, const std::string& moves) {
  if (fen.empty())
    engine.reset();
  else
    engine.setPosition(parseFen(fen));
  playMoves(engine, moves);
}

}  // namespace umax
