// compact.cpp - reading the event records (see compact.h).
#include "umax/trace/compact.h"

#include "umax/trace/fields.h"

namespace umax::trace {

// Each case reads what the recorder wrote for its kind (event_kinds.cpp) and
// fills in the rest from the state, with the same predictions.
const uint8_t* RecordDecoder::decode(const uint8_t* data, const uint8_t* end, Event& event, uint64_t offset) {
  if (const int left = folded_ - 1; left >= 0) {  // a kUsualEntry call's probe, then its node
    static constexpr uint8_t kEntry[] = {recordTag(EventKind::kProbe, kUsualSlotCount),
                                         recordTag(EventKind::kNodeCounted, 0)};  // their records, unwritten
    folded_ = 0;
    decode(kEntry + 1 - left, kEntry + 2 - left, event, offset);
    folded_ = left;
    return data;
  }
  ByteReader read(data, end, offset, "event record");
  try {
    const uint8_t tag = read.u8();
    const int flags = tag >> 4;
    int number = tag & 15;  // a kind from kExtendedKind on: the next byte says which (writeTag)
    if (number == kExtendedKind) number += read.u8();
    if (number < 1 || number >= kEventKindCount) read.fail("unknown event kind " + std::to_string(number));
    const auto kind = static_cast<EventKind>(number);
    event = Event{};
    event.kind = kind;
    const std::vector<Frame>& stack = state_.stack();
    const auto top = [&]() -> const Frame& {
      if (stack.empty()) read.fail(std::string(kindName(kind)) + " record with no call open");
      return stack.back();
    };
    const auto squares = [&](MoveRecord& move) {
      move.from = read.u8();
      move.to = read.u8();
      if (!isOnBoard(move.from) || !isOnBoard(move.to)) read.fail("move square off the board");
    };
    switch (kind) {
      case EventKind::kCall: {
        NodeCall& call = event.call;
        if (flags & kExplicitValues) {
          if (flags > 3) read.fail("bad call flags");
          call.side = (flags & kExplicitCallBlack) ? kBlack : kWhite;
          callArguments(read, call);
          checkCall(read, call);
          break;
        }
        if (flags & ~kUsualEntry) read.fail("bad call flags");
        if (stack.empty()) {
          if (state_.events() != 0) read.fail("a second root call");
          call = header_.root;
        } else if (!predictChild(stack.back(), call, header_.variant)) {
          read.fail("a call without a move");
        }
        call.eval = wrappingSum(call.eval, read.int32());
        if (flags & kUsualEntry) folded_ = 2;
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
      case EventKind::kCutoff:
        if (flags != 0) read.fail("bad flags");
        event.value = kind == EventKind::kIteration ? top().draft + 1 : top().best;
        break;
      case EventKind::kKingCapture:
        event.badCastling = (flags & 1) != 0;
        squares(event.move);
        break;
      case EventKind::kMoveMade: {
        const Frame& frame = top();
        const int shape = flags >> 1;
        if (shape == kExplicitMove) {
          event.move = readMove(read);
          break;
        }
        if (shape > kPromotionMove) read.fail("bad move shape");
        squares(event.move);
        event.move =
            shapedMove(shape, (flags & 1) != 0, event.move.from, event.move.to, frame, header_.variant);
        event.move.piece = state_.board()[event.move.from];
        event.move.victim = state_.board()[event.move.captureSquare];
        break;
      }
      case EventKind::kMoveScored:
        if (flags & ~kExplicitValues) read.fail("bad flags");
        event.value = (flags & kExplicitValues) ? static_cast<int>(read.int32())
                                                : predictedScore(top(), header_.variant);
        break;
      case EventKind::kStore: {
        const Frame& frame = top();
        event.written = (flags & 1) != 0;
        event.slot = frame.probe.slot;
        const int before = (flags >> 1) & 3;
        if (before > kBeforeFollows) read.fail("bad store flags");
        if (before == kBeforeKnown) event.before = frame.slotEntry;
        if (before == kBeforeFollows) event.before = readEntry(read);
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
      default:  // the kinds without fields, and any kind without a layout of its own (fields.h)
        readGenericRecord(read, flags, event);
        break;
    }
  } catch (const TruncatedData&) {
    return nullptr;
  }
  state_.apply(event, offset);
  return read.here();
}

}  // namespace umax::trace
