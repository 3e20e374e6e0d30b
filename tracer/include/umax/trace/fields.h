/// \file fields.h
/// \brief Each event kind's fields as its row names them, and the generic record of a kind that
/// has no layout of its own.
///
/// A row of UMAX_SEARCH_EVENTS (search_observer.h) gives its hook's parameter list, say
/// `(int from, int to, bool badCastling)`. Read as text at compile time, that list names the
/// kind's fields and their types. The twelve kinds of format 6 have record layouts, exports and
/// narrations written for each (compact.h, export_*.cpp, viewmodel/src/narration.cpp). A kind
/// added after them needs none of these: its section of event_kinds.cpp writes its values with
/// writeFieldValues, the reader reads them back into Event::values (readFieldValues), and the
/// exports and the narration print them under their parameter names (jsonl: `"a":1`). Its
/// values must be numbers (int, bool, uint32_t): a kind that reports a struct needs a layout
/// of its own, as kCall and kStore have.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "umax/trace/bytes.h"
#include "umax/trace/format.h"

namespace umax::trace {

/// How a field's value is kept and printed.
enum class FieldType : uint8_t {
  kInteger,  ///< int, uint32_t: a number
  kBool,     ///< bool: true / false
  kOther,    ///< a struct (NodeCall, HashEntry, Move...): only a kind's own layout has it
};

/// One parameter of a row's hook.
struct Field {
  std::string_view name;               ///< the parameter's name: the key the exports print
  FieldType type = FieldType::kOther;  ///< how its value is kept and printed
};

/// A row's fields, in the order of its hook's parameters.
struct FieldList {
  std::array<Field, kMaxRowValues> fields{};  ///< the first `count` (at most kMaxRowValues) are used
  int count = 0;                              ///< fields used
  bool numbers = true;                        ///< every field a number: the generic record can hold the kind
};

/// `text` without the blanks around it.
constexpr std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

/// The fields of a hook's parameter list as the preprocessor spells it: "(int a, bool b)".
constexpr FieldList parseFields(std::string_view parameters) {
  FieldList list;
  parameters = trimmed(parameters.substr(1, parameters.size() - 2));  // without the parentheses
  while (!parameters.empty()) {
    const std::size_t comma = parameters.find(',');
    const std::string_view one = trimmed(parameters.substr(0, comma));
    parameters = comma == std::string_view::npos ? std::string_view() : parameters.substr(comma + 1);
    const std::size_t space = one.find_last_of(" &*");
    const std::string_view type = trimmed(one.substr(0, space));
    Field field{one.substr(space + 1), type == "bool"                        ? FieldType::kBool
                                       : type == "int" || type == "uint32_t" ? FieldType::kInteger
                                                                             : FieldType::kOther};
    list.numbers = list.numbers && field.type != FieldType::kOther && list.count < kMaxRowValues;
    if (list.count < kMaxRowValues) list.fields[static_cast<std::size_t>(list.count)] = field;
    ++list.count;
  }
  return list;
}

/// Makes a {number, fields} row from a row of UMAX_SEARCH_EVENTS.
#define UMAX_TRACE_KIND_FIELDS(kind, site, record, name, hook, parameters) {record, parseFields(#parameters)},

/// Each kind's fields, from its row, as rows of kKindFields.
inline constexpr KindTable<FieldList>::Row kKindFieldRows[] = {UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_FIELDS)};
/// Each kind's fields.
inline constexpr KindTable<FieldList> kKindFields{kKindFieldRows, FieldList{}};

/// The kinds of format 6, which have record layouts, exports and narrations of their own; a
/// kind numbered after them uses the generic ones (this header).
constexpr bool hasOwnLayout(EventKind kind) {
  return static_cast<int>(kind) <= static_cast<int>(EventKind::kReturn);
}

/// The generic record's fields after its tag: each value a zigzag varint, in the row's order.
template <class Code, class... Values>
void writeFieldValues(Code& write, Values... values) {
  static_assert(sizeof...(Values) <= kMaxRowValues, "a kind without its own layout has at most 4 values");
  static_assert((std::integral<Values> && ...), "a kind without its own layout reports numbers only");
  (write.zigzag(static_cast<int64_t>(values)), ...);
}

/// Reads back what writeFieldValues wrote for a kind with the fields `list`.
inline void readFieldValues(ByteReader& read, const FieldList& list,
                            std::array<int64_t, kMaxRowValues>& values) {
  if (!list.numbers) read.fail("a kind that reports more than numbers needs a record layout of its own");
  for (int index = 0; index < list.count; ++index) values[static_cast<std::size_t>(index)] = read.zigzag();
}

/// The rest of a record whose kind has no case of its own in RecordDecoder::decode (the tag
/// read, its flags must be 0): a kind of format 6 that has no fields (kNodeCounted, kMateProbe:
/// what they say is the state's), or a later kind's generic record.
inline void readGenericRecord(ByteReader& read, int flags, Event& event) {
  if (flags != 0) read.fail("bad flags");
  if (!hasOwnLayout(event.kind)) readFieldValues(read, kKindFields[event.kind], event.values);
}

}  // namespace umax::trace
