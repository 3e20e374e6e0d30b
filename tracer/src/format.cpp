// format.cpp - event kinds' names and sites, CRC-32C.
#include "umax/trace/format.h"

#include <array>
#include <climits>
#include <cstdio>

#if defined(UMAX_TRACE_ISAL)
#include <isa-l/crc.h>
#endif

namespace umax::trace {

namespace {

#define UMAX_TRACE_KIND_NAME(kind, site, record, name, hook, parameters) {record, name},
#define UMAX_TRACE_KIND_SITE(kind, site, record, name, hook, parameters) {record, SearchSite::kind},

constexpr KindTable<std::string_view>::Row kNameRows[] = {UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_NAME)};
constexpr KindTable<SearchSite>::Row kSiteRows[] = {UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_SITE)};
constexpr KindTable<std::string_view> kNames(kNameRows, "unknown");
constexpr KindTable<SearchSite> kSites(kSiteRows, SearchSite::kCall);

// CRC-32C: the reflected polynomial 0x82F63B78, the register started and finished all ones.
constexpr auto kCrc32cTable = [] {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    table[byte] = crc;
  }
  return table;
}();

}  // namespace

std::string versionName(uint32_t version) {
  if (!(version & kOtherSchemaBit)) return std::to_string(version);
  char schema[16];
  std::snprintf(schema, sizeof schema, "%06x", version & 0xffffffu);
  return std::to_string((version & ~kOtherSchemaBit) >> 24) + " with event schema 0x" + schema;
}

std::string_view kindName(EventKind kind) { return kNames[kind]; }

std::string_view outcomeName(ProbeOutcome outcome) {
  constexpr std::string_view kOutcomeNames[] = {"miss", "hit", "full"};  // ProbeOutcome's order
  return kOutcomeNames[static_cast<std::size_t>(outcome)];
}

SearchSite siteOf(EventKind kind, bool probeEndsNode) {
  return kind == EventKind::kProbe && probeEndsNode ? SearchSite::kHashCutoff : kSites[kind];
}

uint32_t crc32cPortable(const uint8_t* data, std::size_t size, uint32_t crc) {
  crc = ~crc;
  for (; size > 0; ++data, --size) crc = (crc >> 8) ^ kCrc32cTable[(crc ^ *data) & 0xFFu];
  return ~crc;
}

uint32_t crc32c(const uint8_t* data, std::size_t size, uint32_t crc) {
#if defined(UMAX_TRACE_ISAL)  // ISA-L's register is neither started nor finished all ones
  for (; size > INT_MAX; data += INT_MAX, size -= INT_MAX)
    crc = ~crc32_iscsi(const_cast<uint8_t*>(data), INT_MAX, ~crc);
  return ~crc32_iscsi(const_cast<uint8_t*>(data), static_cast<int>(size), ~crc);
#else
  return crc32cPortable(data, size, crc);
#endif
}

uint32_t chunkCrc(uint32_t events, const uint8_t* payload, std::size_t size) {
  const uint8_t count[4] = {static_cast<uint8_t>(events), static_cast<uint8_t>(events >> 8),
                            static_cast<uint8_t>(events >> 16), static_cast<uint8_t>(events >> 24)};
  return crc32c(payload, size, crc32c(count, sizeof count));
}

}  // namespace umax::trace
