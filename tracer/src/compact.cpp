// compact.cpp - reading the event records (see compact.h).
#include "umax/trace/compact.h"

#include "umax/trace/records.h"

namespace umax::trace {

// Each case reads what the recorder wrote for its kind (event_kinds.cpp) and
// fills in the rest from the state, with the same predictions.
const uint8_t* RecordDecoder::decode(const uint8_t* data, const uint8_t* end, Event& event, uint64_t offset) {
  ByteReader read(data, end, offset, "event record");
  try {
    int flags = 0;
    const EventKind kind = readTag(read, flags);
    event = Event{};
    event.kind = kind;
    const std::vector<Frame>& stack = state_.stack();
    const auto top = [&]() -> const Frame& {
      if (stack.empty()) read.fail(std::string(kindName(event.kind)) + " record with no call open");
      return stack.back();
    };
    switch (event.kind) {
      case EventKind::kCall: {
        NodeCall& call = event.call;
        if (flags & kExplicitValues) {
          if (flags > 3) read.fail("bad call flags");
          call.side = (flags & kExplicitCallBlack) ? kBlack : kWhite;
          readCallArguments(read, call);
          break;
        }
        if (flags != 0) read.fail("bad call flags");
        if (stack.empty()) {
          if (state_.events() != 0) read.fail("a second root call");
          call = header_.root;
        } else if (!predictChild(stack.back(), call)) {
          read.fail("a call without a move");
        }
        call.eval = wrappingSum(call.eval, read.int32());
        break;
      }
      case EventKind::kProbe: {
        const Frame& frame = top();
        const int outcome = flags & 3;
        if (outcome > 2) read.fail("bad probe flags");
        ProbeReport& probe = event.probe;
        probe.outcome = static_cast<ProbeOutcome>(outcome);
        probe.endsNode = (flags & 4) != 0;
        probe.firstSlot = header_.firstProbeSlot(frame.call.side, frame.call.epSquare, frame.call.hashKey);
        const int usual = probe.outcome == ProbeOutcome::kFull ? kProbeSlots : 1;
        probe.slotsProbed = (flags & kUsualSlotCount) ? usual : read.u8();
        if (probe.slotsProbed < 1 || probe.slotsProbed > kProbeSlots) read.fail("bad number of slots probed");
        probe.slot = probe.outcome == ProbeOutcome::kFull ? 0 : probe.firstSlot + probe.slotsProbed;
        if (probe.outcome == ProbeOutcome::kHit) entryContents(read, event.entry);
        break;
      }
      case EventKind::kIteration:
        if (flags != 0) read.fail("bad flags");
        event.value = top().draft + 1;
        break;
      case EventKind::kKingCapture:
        event.badCastling = (flags & 1) != 0;
        event.move.from = read.u8();
        event.move.to = read.u8();
        if (!isOnBoard(event.move.from) || !isOnBoard(event.move.to)) read.fail("move square off the board");
        break;
      case EventKind::kCutoff:
        if (flags != 0) read.fail("bad flags");
        event.value = top().best;
        break;
      case EventKind::kMoveMade: {
        const Frame& frame = top();
        const int shape = flags >> 1;
        if (shape == kExplicitMove) {
          event.move = readMove(read, MoveLayout::kEvent);
          break;
        }
        if (shape > kPromotionMove) read.fail("bad move shape");
        const int from = read.u8();
        const int to = read.u8();
        if (!isOnBoard(from) || !isOnBoard(to)) read.fail("move square off the board");
        event.move = shapedMove(shape, (flags & 1) != 0, from, to, frame);
        event.move.piece = state_.board()[from];
        event.move.victim = state_.board()[event.move.captureSquare];
        break;
      }
      case EventKind::kMoveScored:
        if (flags & ~kExplicitValues) read.fail("bad flags");
        event.value = (flags & kExplicitValues) ? static_cast<int>(read.int32()) : predictedScore(top());
        break;
      case EventKind::kStore: {
        const Frame& frame = top();
        event.written = (flags & 1) != 0;
        event.slot = frame.probe.slot;
        switch ((flags >> 1) & 3) {
          case kBeforeEmpty:
            break;
          case kBeforeKnown:
            event.before = frame.slotEntry;
            break;
          case kBeforeFollows:
            event.before = readEntry(read);
            break;
          default:
            read.fail("bad store flags");
        }
        if (!event.written) {
          if (flags & kStoreAfterFollows) read.fail("bad store flags");
          event.after = event.before;
        } else if (flags & kStoreAfterFollows) {
          event.after = readEntry(read);
        } else {
          event.after = predictedStore(frame);
        }
        break;
      }
      case EventKind::kBestMove:
      case EventKind::kReturn: {
        if (flags & ~kExplicitValues) read.fail("bad flags");
        BestValues values;
        if (flags & kExplicitValues) {
          bestValues(read, values, kind);
        } else {
          values = kind == EventKind::kReturn ? predictedReturn(top()) : predictedBestMove(top());
        }
        event.best = values.best;
        event.bestFrom = values.from;
        event.bestTo = values.to;
        event.draft = values.draft;
        break;
      }
      default:  // the kinds without fields
        if (flags != 0) read.fail("bad flags");
        break;
    }
  } catch (const TruncatedData&) {
    return nullptr;
  }
  state_.apply(event, offset);
  return read.here();
}

}  // namespace umax::trace
