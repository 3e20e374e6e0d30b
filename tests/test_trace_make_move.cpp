// The tracer replays moves with its own make / undo (state.h: makeMove,
// unmakeMove), written from engine.cpp's Steps 8 and 11; the engine's own
// are private and also compute the positional gain. This proves the two
// agree: during real searches of every test position, each move the engine
// makes is made again by the tracer on a copy of the board as it was, and
// taken back on a copy of the board as it was after, and the result is
// compared with the engine's board at that moment (the observer's contract:
// the move is on the board from onMoveMade until onMoveScored).
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "support.h"
#include "umax/engine.h"
#include "umax/trace/state.h"
#include "umax/trace/writer.h"

using namespace umax;
using namespace umax::trace;

namespace {

/// The 128 squares a move can touch (the dummy square 128 is scratch).
bool sameSquares(const Board& a, const Board& b) {
  return std::equal(a.begin(), a.begin() + kNoSquare, b.begin());
}

/// Makes and takes back every move of a search with the tracer's functions
/// and counts where the engine's board says otherwise.
class MakeMoveWitness final : public SearchObserver {
 public:
  explicit MakeMoveWitness(const Engine& engine) : engine_(engine) {}

  uint64_t moves = 0;
  uint64_t madeWrong = 0;
  uint64_t undoneWrong = 0;
  uint64_t castlings = 0;
  uint64_t enPassants = 0;
  uint64_t promotions = 0;

  void onCall(const NodeCall& call) override { sides_.push_back(call.side), keep(); }
  void onProbe(const ProbeReport&, const HashEntry&) override { keep(); }
  void onNodeCounted(int) override { keep(); }
  void onIteration(int) override { keep(); }
  void onKingCapture(int, int, bool) override { keep(); }
  void onCutoff(int) override { keep(); }
  void onMoveMade(const Move& move, int remaining, bool sneaked) override {
    const MoveRecord record = recordOf(move, remaining, sneaked);
    Board made = before_;
    makeMove(made, record, sides_.back());
    madeWrong += !sameSquares(made, engine_.position().board);
    made_.push_back({record, engine_.position().board});
    ++moves;
    castlings += (record.flags & kMoveCastling) != 0;
    enPassants += (record.flags & kMoveEnPassant) != 0;
    promotions += (record.flags & kMovePromotion) != 0;
    keep();
  }
  void onMoveScored(int) override {
    Board undone = made_.back().after;
    unmakeMove(undone, made_.back().move, sides_.back());
    undoneWrong += !sameSquares(undone, engine_.position().board);
    made_.pop_back();
    keep();
  }
  void onBestMove(int, int, int) override { keep(); }
  void onMateProbe() override { keep(); }
  void onStore(uint32_t, const HashEntry&, const HashEntry&, bool) override { keep(); }
  void onReturn(int, int, int, int) override { sides_.pop_back(), keep(); }

 private:
  /// The engine's board after the last hook: the board before the next move.
  void keep() { before_ = engine_.position().board; }

  struct Made {
    MoveRecord move;
    Board after;  // the engine's board with the move on it
  };
  const Engine& engine_;
  Board before_{};
  std::vector<int> sides_;  // the side to move of each open call
  std::vector<Made> made_;  // the moves on the board, innermost last
};

}  // namespace

TEST_CASE("the tracer makes and takes back every move of real searches as the engine does", "[trace]") {
  const auto engine = std::make_unique<Engine>();
  MakeMoveWitness witness(*engine);
  for (const test::TestPosition& position : test::testPositions()) {
    CAPTURE(position.fen);
    engine->setPosition(parseFen(position.fen));
    // Every root has J = Z = 1: the last root's entry would answer this one.
    // Deeper entries may be other positions' (a full clear per position
    // costs more than the searches); they change which moves are tried,
    // not how a move is made.
    engine->clearRootProbeWindow();
    engine->think(400, witness);
  }
  CHECK(witness.madeWrong == 0);
  CHECK(witness.undoneWrong == 0);
  // The proof covers the special moves too.
  CHECK(witness.moves > 500000);
  CHECK(witness.castlings > 0);
  CHECK(witness.enPassants > 0);
  CHECK(witness.promotions > 0);
}
