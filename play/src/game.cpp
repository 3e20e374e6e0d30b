// game.cpp - a game of the readable engine behind a chess GUI: main()'s path
// for every move, FIDE's rules at the border.
#include "umax/play/game.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sstream>
#include <utility>

#include "umax/play/fide.h"
#include "umax/play/pv.h"
#include "umax/session.h"
#include "umax/trace/writer.h"

namespace umax::play {
namespace {

/// Budget of the think that finds a move when a stop came before any.
constexpr long kEmergencyBudget = 2000;

/// The table is given its memory this many bytes at a time (four 2 MB
/// pages), so that a new table or a new game stops the work within one piece.
constexpr std::size_t kPopulateChunk = std::size_t{8} << 20;

/// Slots a sweep of the locks clears between two looks at endSoon(): 12 MB
/// of the table, a millisecond or so of the sweep's 20 to 50 ms.
constexpr std::size_t kSweepSlots = std::size_t{1} << 20;

/// main()'s start state: the start board, white to move, O = 0 (the
/// original's global starts at 0), eval 0.
Position mainStart() {
  Position start;
  start.board = startBoard();
  start.side = kWhite;
  start.epSquare = 0;
  start.eval = 0;
  return start;
}

int promotionType(char letter) {
  switch (letter) {
    case 'q':
      return kQueen;
    case 'r':
      return kRook;
    case 'b':
      return kBishop;
    case 'n':
      return kKnight;
    default:
      return kEmpty;
  }
}

/// A pawn of the side to move reaching its last rank.
bool isPromotion(const Position& position, int from, int to) {
  const int piece = position.board[from];
  if (!(piece & position.side) || typeOf(piece) > kDownwardPawn || typeOf(piece) == kEmpty) return false;
  return (to & kRowMask) == (position.side == kWhite ? 0 : 0x70);
}

bool isCastling(const Position& position, int from, int to) {
  return typeOf(position.board[from]) == kKing && (to - from == 2 || from - to == 2);
}

/// The original always promotes to a queen. An under-promotion to `type`
/// replaces the queen on `to` after the move and corrects the game-level
/// eval Q (the opponent's view) by the value difference, as if the search's
/// promotion bonus had been given for the smaller piece.
void underPromote(Position& after, int to, int type) {
  after.board[to] = static_cast<int8_t>(pieceCode(type, opponentOf(after.side)));
  after.eval += kValueScale * (kPieceValue[kQueen] - kPieceValue[type]);
}

/// What a GUI is told of the root after `report`: its draft, score, best
/// move and nodes, at `depth` in the GUI's plies, with the line `pv`.
Iteration iterationOf(const IterationReport& report, int depth, std::string pv) {
  Iteration iteration;
  iteration.depth = depth;
  iteration.draft = report.draft;
  iteration.score = report.score;
  iteration.from = report.from;
  iteration.to = report.to;
  iteration.nodes = report.nodes;
  iteration.pv = std::move(pv);
  return iteration;
}

/// The line the hash table holds from the root if it starts with the best
/// move from-to (the root's entry is stored), else that move alone.
std::string lineFrom(const Engine& engine, int from, int to) {
  const std::string best = moveText(from, to);
  const std::string line = principalVariation(engine);
  return line.rfind(best, 0) == 0 ? line : best;
}

}  // namespace

std::string moveText(int from, int to, char promotion) {
  std::string text = moveName(from, to);
  if (promotion) text += promotion;
  return text;
}

Game::Game() : engine_(std::make_unique<Engine>()) { newGame(); }

Game::~Game() { stopPopulating(); }

void Game::newGame() {
  if (engine_->hashTableUnused()) {
    engine_->clearHashTable();  // all zeroes still: only the engine's bookkeeping is reset
  } else {
    // A fresh mapping rather than 192 MB zeroed on the command's thread
    // (a ping after new waited for that); its zeroes are the original's
    // freshly started table, as clearHashTable's are.
    stopPopulating();
    engine_->resizeHashTable(engine_->hashSlotBits());
    tablePrepared_ = false;
  }
  if (prepareTables_ && !tablePrepared_) startPopulating();
  locksClearedAhead_ = true;  // an empty table: every lock is 0, as main()'s clearing leaves them
  resumeSweep_ = false;
  preparedPly_ = -1;
  chosenPlays_ = false;
  start_ = mainStart();
  startFen_.clear();
  startFullMove_ = 1;
  engine_->setPosition(start_);
  moves_.clear();
  before_.clear();
  chosen_ = {};
  locksStale_ = false;
  thoughtHere_ = false;
  ++gameNumber_;
}

void Game::setBoard(std::string_view fen) {
  Position position = parseFen(fen);  // throws before anything changes
  std::istringstream fields{std::string(fen)};
  std::string field;
  int count = 0;
  startFullMove_ = 1;
  while (fields >> field)
    if (++count == 6) startFullMove_ = std::stoi(field);
  start_ = position;
  startFen_ = std::string(fen);
  engine_->setPosition(start_);
  preparedPly_ = -1;
  chosenPlays_ = false;
  moves_.clear();
  before_.clear();
  chosen_ = {};
  locksStale_ = true;  // the table is kept: positions of the last game would answer this one's probes
  thoughtHere_ = false;
  ++gameNumber_;
}

std::string Game::setHashMegabytes(long megabytes) {
  int bits = kMinHashSlotBits;
  const long bytes = std::clamp(megabytes, kMinHashMegabytes, kDefaultHashMegabytes) << 20;
  while (bits < kHashSlotBits && (long{1} << (bits + 1)) * static_cast<long>(sizeof(HashEntry)) <= bytes)
    ++bits;
  if (bits != engine_->hashSlotBits()) {
    stopPopulating();
    engine_->resizeHashTable(bits);
    tablePrepared_ = false;
    if (prepareTables_) startPopulating();
    locksClearedAhead_ = true;  // a new, empty table
    resumeSweep_ = false;
    preparedPly_ = -1;
    locksStale_ = true;  // the next think plays the last move again on main()'s path, into the new table
    thoughtHere_ = false;
  }
  const std::string size = "hash table " + std::to_string(engine_->hashTableBytes() >> 10) + " KB (2^" +
                           std::to_string(bits) + " + 9 slots)";
  if (bits == kHashSlotBits) return size + ": the original's table, thinks node-identical to micro-Max 3.2";
  return size + ": smaller than the original's " + std::to_string(kDefaultHashMegabytes) +
         " MB, so thinks are no longer node-identical to micro-Max 3.2 (traces record the table's size)";
}

int Game::fullMove() const {
  // Count the black moves played since the start.
  int number = startFullMove_;
  int side = start_.side;
  for (std::size_t index = 0; index < moves_.size(); ++index) {
    if (side == kBlack) ++number;
    side = opponentOf(side);
  }
  return number;
}

std::string Game::moveList() const {
  std::string list;
  for (const PlayedMove& move : moves_) list += (list.empty() ? "" : " ") + move.text;
  return list;
}

// An under-promotion is played as the queen promotion (main()'s path), then
// the queen is replaced and the eval corrected (underPromote).
//
// With the locks cleared ahead (clearLocksAhead), either path is main()'s
// path without its clearing: Engine::checkMove clears only the root's probe
// window, whose locks are 0 already, then checks as playMove does. A probe
// takes a slot whose lock is 0 for empty whatever else it holds, so the
// table is then exactly the one main()'s path leaves.
bool Game::playOnEngine(int from, int to, char promotion, Path path) {
  const Position before = engine_->position();
  const auto start = std::chrono::steady_clock::now();
  const bool ahead = locksClearedAhead_;
  locksClearedAhead_ = false;
  resumeSweep_ = false;  // the check touches the table: a clearing cut short can no longer be finished
  if (ahead) path = Path::kOriginal;
  // The session ends: no think follows whose table this check would prepare.
  if (ending_ && !ahead) path = Path::kFast;
  const bool legal =
      path == Path::kOriginal && !ahead ? engine_->playMove(from, to) : engine_->checkMove(from, to);
  if (path == Path::kOriginal) {
    lastCheckSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    locksStale_ = false;  // main()'s path has just cleared them
  } else {
    locksStale_ = true;  // the fast check left the table's other locks as they were
  }
  if (!legal) return false;
  const int type = promotionType(promotion);
  if (isPromotion(before, from, to) && type != kEmpty && type != kQueen) {
    Position after = engine_->position();
    underPromote(after, to, type);
    engine_->setPosition(after);
    note_ = "under-promotion " + moveText(from, to, promotion) +
            ": played as the original's queen promotion, then the queen replaced and the eval corrected";
  }
  return true;
}

void Game::describeLastMove(const std::string& details) {
  if (!chosen_.text.empty())
    chosen_.details = details;
  else if (!moves_.empty())
    moves_.back().details = details;
}

std::string Game::playMove(std::string_view text, Path path) {
  note_.clear();
  int from;
  int to;
  if (text.size() < 4 || text.size() > 5 || !parseMove(text.substr(0, 4), from, to))
    return "not a move like e2e4";
  const Position before = engine_->position();
  char promotion = text.size() == 5 ? text[4] : 0;
  if (promotion && promotionType(static_cast<char>(promotion | 0x20)) == kEmpty)
    return "promotion piece must be one of q, r, b, n";
  promotion = static_cast<char>(promotion ? promotion | 0x20 : 0);
  if (promotion && !isPromotion(before, from, to)) return "only a pawn reaching the last rank promotes";
  if (!promotion && isPromotion(before, from, to)) promotion = 'q';
  if (!isFideLegal(before, from, to)) return "illegal";
  chosenPlays_ = false;
  const bool prepared = preparedPly_ == static_cast<long>(moves_.size()) && preparedGame_ == gameNumber_ &&
                        locksClearedAhead_ && !chosen_.text.empty() &&
                        chosen_.text == moveText(from, to, promotion);
  preparedPly_ = -1;
  if (prepared) {
    // Our chosen move, sent back by the GUI: its check ran after bestmove
    // (prepareChosen) and the locks were cleared since, as main()'s path
    // clears them for the next move: only the position after it is set.
    // Should a think come next instead of that move, it first checks this
    // one again (on the cleared locks: main()'s path without its sweep).
    engine_->setPosition(preparedAfter_);
    lastCheckSeconds_ = 0;
    locksStale_ = true;
  } else if (path == Path::kDeferred) {
    // The board only (the table untouched): the next think's set-up plays
    // the move again on main()'s path, as after a restored position.
    placeMove(before, from, to, promotion);
    lastCheckSeconds_ = 0;
    locksStale_ = true;
  } else if (!playOnEngine(from, to, promotion, path)) {
    // FIDE allows it but the original's check refuses it: a castling whose
    // rook lands where a reply can capture it, or whose king's square a reply
    // reaches (see the quirks page). A GUI has accepted the move, so it is put
    // on the board directly, the way the original would have played it.
    placeMove(before, from, to, promotion);
    note_ = "micro-Max's rules refuse " + moveText(from, to, promotion) +
            " (FIDE allows it): set on the board directly, the original's game path ends here";
  }
  PlayedMove played{moveText(from, to, promotion), false, ""};
  if (!chosen_.text.empty() && chosen_.text == played.text) played = chosen_;  // the move our think chose
  chosen_ = {};
  thoughtHere_ = false;
  moves_.push_back(played);
  before_.push_back(before);
  return "";
}

void Game::rewind() { truncate(0); }

void Game::truncate(std::size_t plies) {
  chosen_ = {};
  chosenPlays_ = false;
  preparedPly_ = -1;
  thoughtHere_ = false;
  if (plies >= moves_.size()) return;
  engine_->setPosition(before_[plies]);
  moves_.resize(plies);
  before_.resize(plies);
  locksStale_ = true;
}

void Game::placeMove(const Position& before, int from, int to, char promotion) {
  // The move made as the search makes it (applyMove), with FIDE's e.p.
  // square: Q = -e - i, material only, as after the original's moves.
  Position after = before;
  const MadeMove move = applyMove(after, from, to, fideEpSquare(before));
  // After a castling the original's O would be the square the king passed,
  // which makes every reply landing on or beside it a king capture: the very
  // test that refused this castling. The game goes on without it.
  if (move.rookFrom != kNoSquare) after.epSquare = kNoSquare;
  const int type = promotionType(promotion);
  if (isPromotion(before, from, to) && type != kEmpty && type != kQueen) underPromote(after, to, type);
  engine_->setPosition(after);
}

bool Game::undo() {
  if (moves_.empty()) return false;
  truncate(moves_.size() - 1);
  return true;
}

ThinkResult Game::search(const ThinkLimits& limits, long& budgetUsed, bool& stopped) {
  budgetUsed = limits.budget;
  locksClearedAhead_ = false;
  resumeSweep_ = false;
  preparedPly_ = -1;
  const auto searchStart = std::chrono::steady_clock::now();
  const auto secondsSoFar = [searchStart] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - searchStart).count();
  };
  engine_->setStopFlag(limits.stop);
  long lastIterationNodes = 0;
  bool depthReached = false;
  bool planReached = false;
  double lastIterationSeconds = 0;  // wall time of the last completed iteration
  double iterationEnded = 0;        // seconds into the search when it ended
  bool reported = false;
  int lastDraft = 0;  // the last draft below kMateDraft
  int lastFrom = 0;   // the root's best move in the last line reported
  int lastTo = 0;
  engine_->setIterationListener([&](const IterationReport& report) {
    lastIterationNodes = report.nodes;
    // A mate score ends the deepening with d = kMateDraft: the iteration was the one after the last.
    const int draft = report.draft == kMateDraft ? lastDraft + 1 : report.draft;
    if (report.draft != kMateDraft) lastDraft = report.draft;
    // Drafts below kDraftOfDepthOne are not yet a GUI's depth 1: not reported.
    if (limits.listener && report.from != report.to && draft >= kDraftOfDepthOne) {
      // The root's entry is stored by now: the line starts with the iteration's best move.
      Iteration iteration = iterationOf(report, std::max(1, draft - (kDraftOfDepthOne - 1)),
                                        lineFrom(*engine_, report.from, report.to));
      iteration.seconds = secondsSoFar();
      limits.listener(iteration);
      reported = true;
      lastFrom = report.from;
      lastTo = report.to;
    }
    // A depth limit ends the think after an iteration with a move (never the
    // first, which looks at no move), at the draft of that many plies.
    if (limits.depth > 0 && report.from != report.to && draft >= limits.depth + kDraftOfDepthOne - 1 &&
        limits.stop && !limits.stop->load()) {
      depthReached = true;
      limits.stop->store(true);
    }
    // The time plan: the next iteration is guessed to take the last one's
    // time times the growth from the one before (2 to 10, 5 when unknown);
    // if it would end past the plan, it is not started.
    const double now = secondsSoFar();
    const double took = now - iterationEnded;
    iterationEnded = now;
    const double growth =
        lastIterationSeconds > 0.0005 ? std::clamp(took / lastIterationSeconds, 2.0, 10.0) : 5.0;
    lastIterationSeconds = took;
    if (limits.planSeconds > 0 && report.from != report.to && draft >= kDraftOfDepthOne && limits.stop &&
        !limits.stop->load()) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - limits.planStart).count();
      if (elapsed + growth * took > limits.planSeconds) {
        planReached = true;
        limits.stop->store(true);
      }
    }
  });
  // Between iterations: a line whenever another move becomes the root's
  // best in the iteration under way (from depth 1 on), with that move as
  // its line (the table holds the root's new line only when the iteration ends).
  if (limits.listener)
    engine_->setRootMoveListener([&](const IterationReport& report) {
      if (report.draft < kDraftOfDepthOne || (report.from == lastFrom && report.to == lastTo)) return;
      lastFrom = report.from;
      lastTo = report.to;
      Iteration iteration =
          iterationOf(report, report.draft - (kDraftOfDepthOne - 1), moveText(report.from, report.to));
      iteration.midIteration = true;
      iteration.seconds = secondsSoFar();
      limits.listener(iteration);
    });
  ThinkResult result;
  if (limits.tracePath.empty()) {
    result = engine_->think(limits.budget);
  } else {
    const std::string fen = startFen_.empty() ? std::string(kStartFen) : startFen_;
    // A trace that cannot be written never costs the think: the search runs
    // (or completes) as untraced, and the failure goes to the user.
    // A think abandoned (quit, end of input, a new move...) is marked in its trace as not played.
    const auto notPlayed = [&limits]() -> std::string {
      if (!limits.discard || !limits.discard->load()) return "";
      return limits.discardReason && !limits.discardReason->empty() ? *limits.discardReason : "abandoned";
    };
    trace::RecordedThink recorded = trace::recordThinkReporting(
        *engine_, limits.budget, limits.tracePath, fen, moveList(), {}, limits.traceLimitBytes, notPlayed);
    result = recorded.result;
    traceTrimmed_ = traceTrimmed_ || recorded.trimmed;
    if (traceFailure_.empty()) traceFailure_ = std::move(recorded.traceFailure);
  }
  engine_->setIterationListener({});
  engine_->setRootMoveListener({});
  engine_->setStopFlag(nullptr);
  // A think the depth limit stopped right after an iteration is the think
  // whose budget is that iteration's node count: the original starts no new
  // iteration once its budget is spent. Any other stop ends it early: not
  // reproducible by a budget.
  stopped = result.aborted && !depthReached && !planReached;
  planEnded_ = planReached;
  if (depthReached || planReached) {
    budgetUsed = lastIterationNodes;
    limits.stop->store(false);  // ours, not the GUI's: a second search may follow
  }
  if (result.aborted && !result.hasMove() && !(limits.discard && limits.discard->load())) {
    // Stopped before iteration 2 ended: no move proven yet. A small think
    // without the flag (node-identical to the original's) finds one.
    result = engine_->think(kEmergencyBudget);
    budgetUsed = kEmergencyBudget;
    stopped = true;
  }
  if (!reported && limits.listener && result.hasMove()) {
    // No iteration reported a move (the table answered the root, or only the
    // emergency think found one): report the result, with the draft the
    // table holds for the root, so that a GUI always sees depth, score and line.
    const int draft = rootDraft(*engine_);
    const IterationReport root{0, draft, result.score, result.from, result.to, result.nodes};
    Iteration iteration = iterationOf(
        root, std::max(1, (draft == kMateDraft ? kDraftOfDepthOne : draft) - (kDraftOfDepthOne - 1)),
        lineFrom(*engine_, result.from, result.to));
    iteration.fromTable = result.completedIterations == 0;
    iteration.seconds = secondsSoFar();
    limits.listener(iteration);
  }
  return result;
}

GameThink Game::think(const ThinkLimits& limits) {
  GameThink outcome = choose(limits);
  if (chosenPlays_) playChosen(outcome);
  return outcome;
}

GameThink Game::choose(const ThinkLimits& limits) {
  GameThink outcome;
  chosen_ = {};
  chosenPlays_ = false;
  if (fideLegalMoves(engine_->position()).empty()) {
    outcome.note = "no legal move";
    return outcome;
  }
  // The table's memory, if it is still being given (a think right after
  // start-up or a new game): set-up, before the search's clock starts.
  outcome.tableWaitSeconds = waitTable(limits.stop);
  traceFailure_.clear();
  traceTrimmed_ = false;
  // A think from the position of the last think (a GUI's second go) starts
  // afresh, as if the position had just been entered, rather than taking the
  // last think's result from the table whatever limit it has now.
  if (thoughtHere_) locksStale_ = true;
  thoughtHere_ = !limits.play;
  // A clearing of the locks that a command cut short (cutSweep), the table
  // untouched since: finished here, it leaves every lock 0 as a whole one
  // does, and the last move is then only checked (main()'s path on cleared locks).
  if (resumeSweep_ && sweepLocksFrom(sweepNext_)) {
    resumeSweep_ = false;
    locksClearedAhead_ = true;
  }
  if (locksStale_) {
    // The position was reached by restoring a saved one or by the fast check:
    // the last move is played again on main()'s path (clear the locks, check,
    // play), which leaves the table as the original leaves it after that move.
    if (!moves_.empty()) {
      const PlayedMove& last = moves_.back();
      int from;
      int to;
      parseMove(std::string_view(last.text).substr(0, 4), from, to);
      const char promotion = last.text.size() == 5 ? last.text[4] : 0;
      engine_->setPosition(before_.back());
      if (!playOnEngine(from, to, promotion, Path::kOriginal)) {
        placeMove(before_.back(), from, to, promotion);
        if (!last.byEngine)
          outcome.note = "micro-Max's rules refuse " + last.text +
                         " (FIDE allows it): set on the board directly, the original's game path ends here";
      }
    } else if (!locksClearedAhead_) {
      sweepLocks();
    }
    locksStale_ = false;
  }
  const Position before = engine_->position();
  outcome.searchStart = std::chrono::steady_clock::now();
  outcome.result = search(limits, outcome.budget, outcome.stopped);
  outcome.planEnded = planEnded_;
  if (limits.discard && limits.discard->load()) {
    // Abandoned (quit, a new game, ...): nothing is searched again, and the
    // result stays the traced search's, which game.txt names as not played.
    outcome.searchSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - outcome.searchStart).count();
    outcome.traceFailure = traceFailure_;
    outcome.traceTrimmed = traceTrimmed_;
    outcome.note = "think abandoned";
    return outcome;
  }
  int from = outcome.result.from;
  int to = outcome.result.to;
  if (from == to || !isFideLegal(before, from, to)) {
    outcome.filtered = moveText(from, to);
    if (from != to && isCastling(before, from, to)) {
      // FIDE refuses the castling (out of or through a pawn's attack). Search
      // again with the king's virgin bit cleared, so that the generator does
      // not offer castling at all; the hash keys ignore the bit, so the table
      // serves the second search as it is. The bit is put back afterwards.
      outcome.note = "FIDE filter: " + outcome.filtered + " " + fideRefusal(before, from, to) +
                     "; searched again without castling";
      Position noCastling = before;
      noCastling.board[from] = static_cast<int8_t>(noCastling.board[from] & ~kVirgin);
      engine_->setPosition(noCastling);
      outcome.result = search(limits, outcome.budget, outcome.stopped);
      engine_->setPosition(before);
    } else {
      // Not a castling: the think answered from the table (e.g. 0 nodes after
      // a refused move) or found nothing. Clear the locks and search again.
      outcome.note = "FIDE filter: " + outcome.filtered + " " + fideRefusal(before, from, to) +
                     "; searched again from a table with cleared locks";
      sweepLocks();
      outcome.result = search(limits, outcome.budget, outcome.stopped);
    }
    from = outcome.result.from;
    to = outcome.result.to;
    if (from == to || !isFideLegal(before, from, to)) {
      // Still nothing FIDE accepts: play the first legal move, and say so.
      const FideMove fallback = fideLegalMoves(before).front();
      outcome.note += "; the second search chose " + moveText(from, to) + " too, so the first legal move " +
                      moveText(fallback.from, fallback.to) + " is played";
      from = fallback.from;
      to = fallback.to;
    }
  }
  outcome.searchSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - outcome.searchStart).count();
  outcome.traceFailure = traceFailure_;
  outcome.traceTrimmed = traceTrimmed_;
  if (limits.discard && limits.discard->load()) {
    outcome.note = "think abandoned";
    return outcome;
  }
  const char promotion = isPromotion(before, from, to) ? 'q' : 0;
  outcome.move = moveText(from, to, promotion);
  chosen_ = {outcome.move, true, ""};
  if (limits.play) {
    chosenPlays_ = true;
    chosenBefore_ = before;
    chosenFrom_ = from;
    chosenTo_ = to;
    chosenPromotion_ = promotion;
  }
  return outcome;
}

// main()'s path plays our move as it plays an entered one: clear the locks,
// check, play. The front ends clear the locks again right after, for the
// opponent's move (clearLocksAhead), which wipes whatever this check stored,
// so the root's window is enough here (Path::kFast): the table the
// opponent's move then meets is main()'s, one sweep of the 16M slots sooner.
// Should no clearing follow, the fast path's mark (locksStale_) has the next
// think play this move again on main()'s path first.
void Game::playChosen(GameThink& think) {
  if (!chosenPlays_) return;
  chosenPlays_ = false;
  engine_->setPosition(chosenBefore_);
  if (!playOnEngine(chosenFrom_, chosenTo_, chosenPromotion_, Path::kFast)) {
    // FIDE allows it (the filter checked), the original's check refuses it
    // (see playMove): the GUI has it, so it is set on the board directly.
    placeMove(chosenBefore_, chosenFrom_, chosenTo_, chosenPromotion_);
    think.note += (think.note.empty() ? "" : "; ") + std::string("micro-Max's check refuses its own move ") +
                  think.move + " (FIDE allows it): set on the board directly";
  }
  think.played = true;
  moves_.push_back(chosen_);
  before_.push_back(chosenBefore_);
  chosen_ = {};
  thoughtHere_ = false;
}

void Game::prepareChosen() {
  if (chosen_.text.empty() || chosenPlays_) return;
  int from;
  int to;
  if (!parseMove(std::string_view(chosen_.text).substr(0, 4), from, to)) return;
  const Position before = engine_->position();
  // The root's window is enough (see playChosen): the locks are cleared next.
  const bool stale = locksStale_;
  const bool legal = playOnEngine(from, to, chosen_.text.size() == 5 ? chosen_.text[4] : 0, Path::kFast);
  locksStale_ = stale;
  const Position after = engine_->position();
  engine_->setPosition(before);
  clearLocksAhead();
  if (legal) {
    preparedAfter_ = after;
    preparedPly_ = static_cast<long>(moves_.size());
    preparedGame_ = gameNumber_;
  }
}

void Game::prepareTable() {
  prepareTables_ = true;
  if (!tablePrepared_) startPopulating();
}

// MADV_POPULATE_WRITE (Linux 5.14) faults the pages in as writes would,
// without writing: the engine may use the table meanwhile (a legality
// check on the command's thread), and every byte stays what it was.
void Game::startPopulating() {
  tablePrepared_ = true;
  if (ending_) return;  // no think follows: a search would fault in what it needs
  auto* const start = reinterpret_cast<char*>(const_cast<HashEntry*>(engine_->hashTable().data()));
  const std::size_t bytes = engine_->hashTableBytes();
#ifdef MADV_POPULATE_WRITE
  stopPopulating_ = false;
  populated_ = false;
  populator_ = std::thread([this, start, bytes] {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    for (std::size_t offset = 0; offset < bytes && !stopPopulating_; offset += kPopulateChunk) {
      const std::size_t length = std::min(kPopulateChunk, bytes - offset);
      if (madvise(start + offset, (length + page - 1) / page * page, MADV_POPULATE_WRITE) != 0) {
        // EINVAL: a kernel without it; then the think's set-up touches the
        // pages. Anything else (no memory): the search faults in the rest.
        if (errno == EINVAL) touchPending_ = true;
        break;
      }
    }
    populated_ = true;
  });
#else
  (void)start;
  (void)bytes;
  touchPending_ = true;
#endif
}

void Game::stopPopulating() {
  stopPopulating_ = true;
  if (populator_.joinable()) populator_.join();
  stopPopulating_ = false;
  touchPending_ = false;
}

double Game::waitTable(const std::atomic<bool>* stop) {
  const auto start = std::chrono::steady_clock::now();
  // A stop (stop, ?, quit, a new game) ends the wait: the search then
  // faults in what is left itself, beside the population.
  while (populator_.joinable() && !populated_ && !(stop && stop->load()))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (populator_.joinable() && populated_) populator_.join();
  if (touchPending_ && !populator_.joinable()) {
    // Each page written with the byte it holds: its memory, the same zeroes.
    auto* const table = reinterpret_cast<volatile char*>(const_cast<HashEntry*>(engine_->hashTable().data()));
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    for (std::size_t offset = 0; offset < engine_->hashTableBytes(); offset += page)
      table[offset] = table[offset];
    touchPending_ = false;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Game::clearLocksAhead() {
  if (sweepLocksFrom(0)) {
    locksClearedAhead_ = true;
    resumeSweep_ = false;
  } else {
    // Cut short (endSoon, cutSweep): some locks are left, so the table is
    // not main()'s until the clearing is finished (resumeSweep_: the next
    // think does it) or done again (the last move on main()'s path).
    locksClearedAhead_ = false;
    locksStale_ = true;
    resumeSweep_ = !ending_;
  }
}

bool Game::sweepLocks() {
  resumeSweep_ = false;
  const bool done = sweepLocksFrom(0);
  if (!done) locksStale_ = true;  // cut short: the next think clears them on main()'s path
  return done;
}

bool Game::sweepLocksFrom(std::size_t first) {
  const std::size_t slots = engine_->hashTable().size();
  for (; first < slots; first += kSweepSlots) {
    if (ending_ || cutSweep_) {
      sweepNext_ = first;
      return false;
    }
    const std::size_t last = std::min(slots, first + kSweepSlots);
    for (std::size_t slot = first; slot < last; ++slot) engine_->clearHashLock(static_cast<int32_t>(slot));
  }
  sweepNext_ = slots;
  return true;
}

void Game::endSoon(bool ending) {
  ending_ = ending;
  if (ending) stopPopulating_ = true;  // the populator ends at its next piece; its thread is joined as before
}

std::string Game::outcome() const {
  const Position now = engine_->position();
  if (!fideLegalMoves(now).empty()) return "";
  if (inCheck(now, now.side)) return now.side == kWhite ? "0-1 {Black mates}" : "1-0 {White mates}";
  return "1/2-1/2 {Stalemate}";
}

}  // namespace umax::play
