# Read by ctest (TEST_INCLUDE_FILES, after the discovered Catch2 cases): the
# longest tests first. ctest -j starts the tests with the highest COST first;
# without costs (a clean clone has no CTestCostData.txt yet) it would start
# them in the order they are listed, and a long case started last would run
# alone at the end while the other core idles. The costs are seconds on one
# core, measured (they only set the order). The match tests' costs are set
# in matches.cmake (this file is read before they are defined).
set(umax_test_costs
  "umax:both builds think alike in e.p., castling and promotion situations|27"
  "umax:both builds think alike from the middlegame positions|26"
  "umax:transcripts of whole games are byte-identical|23"
  "umax:both builds think alike from the opening positions|21"
  "umax:thinks in the middle of games, from the table the move checks leave, agree|21"
  "umax:binary input, NUL bytes and a missing last newline match the original|19"
  "umax:both builds think alike from the endgame positions|17"
  "umax:both builds think alike when in check, mated, stalemated or mating|16"
  "umax:the original main() and the readable loop print the same for random move lines|13"
  "umax:every input of the committed fuzz_equivalence corpus gives the same searches in both builds|12"
  "umax:the navigator lands on the same event with the indexes as without them, for every move|8"
  "umax:step over a move lands after its score with the same stack and board|1"
  "umax:the view model agrees with an independent walk of the jsonl export at every event|13"
  "umax:a trace gives back every event the search tells, returns included, stopped or not|2"
  "umax:an overlong line is read in pieces and discarded with a message, in bounded memory, in every mode|12"
  "umax:every input of the committed fuzz_protocol corpus ends its session cleanly|17"
  "umax:the jumps land just after the next event of their kind, skipping none, iterations in order|6"
  "umax:opened from the footer's index, damage in a chunk is refused when that chunk is first decoded|2")
foreach(entry IN LISTS umax_test_costs)
  string(FIND "${entry}" "|" bar REVERSE)
  string(SUBSTRING "${entry}" 0 ${bar} name)
  math(EXPR start "${bar} + 1")
  string(SUBSTRING "${entry}" ${start} -1 cost)
  set_tests_properties("${name}" PROPERTIES COST ${cost})
endforeach()

# The tests that limit the address space (ulimit -v). AddressSanitizer
# reserves terabytes of address space for its shadow memory before main() runs,
# so under it those processes die before the program can say anything: the
# sanitize test preset leaves the label "address-limit" out; the plain build
# (scripts/test.sh) runs them.
set_tests_properties("umax:too little memory for the hash table gives a one-line message, not an abort"
  "umax:a --hash-bits table needs no more address space than the original's"
  "umax:a --hash-bits table maps only its own size, never the original's first"
  "umax:umax-viz short of address space opens its window or names the limit, never aborts"
  "umax:a program holding the original's table names it when it cannot be loaded, never dies of SIGSEGV"
  PROPERTIES LABELS address-limit)
