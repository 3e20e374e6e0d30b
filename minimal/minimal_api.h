/* minimal_api.h - a small C API over the verbatim micro-Max 3.2 source.
 *
 * The adapter (minimal_adapter.c) #includes micro-max.c unmodified, with its
 * main() renamed by a macro, and drives the original's globals the way main()
 * does. Everything the original keeps between moves is a global there
 * (board b[], hash table A[], node count N, best move K/L, eval Q, e.p. square
 * O); only the side to move is main()'s local k, which the adapter keeps.
 *
 * Squares are 0x88 indices as in micro-Max: a8 = 0, h8 = 7, a1 = 112, h1 = 119.
 * Sides are 8 (white) and 16 (black).
 */
#ifndef UMAX_MINIMAL_API_H
#define UMAX_MINIMAL_API_H

#ifdef __cplusplus
extern "C" {
#endif

/** One hash-table entry, laid out as the original's struct _ {int K,V;char X,Y,D;}. */
typedef struct umaxm_hash_entry {
  int lock;          /* K: the position's hash lock Z, 0 = empty slot */
  int score;         /* V */
  signed char from;  /* X: best from-square | 8 (score > alpha) | 128 (score < beta) */
  signed char to;    /* Y: best to-square | 128 unless the move castles */
  signed char draft; /* D */
} umaxm_hash_entry;

/** Puts the program in the state of a fresh process, then runs the original
 *  main() until its first read of input: main() itself builds the board
 *  and fills T[] (random()>>9 from glibc's default seed). White to move. */
void umaxm_reset_to_main_start(void);
/** Runs the original main() from a fresh-process state on the given input
 *  and returns what it printed (valid until the next call). Where the real
 *  program would start a line at the end of its input (and then loop for
 *  ever), the adapter's getchar() leaves main() instead; an unterminated
 *  last line still ends in EOF (-1) and is handled, as in the real program. */
const char *umaxm_run_main(const char *input, unsigned long input_length, unsigned long *output_length);
/** Copies a 129-byte board (pieces + centre table + dummy) into b[], sets the side, O and Q. */
void umaxm_set_position(const signed char board[129], int side, int ep_square, int eval);
/** Reads back b[], the side to move, O (as the char the original stores) and Q. */
void umaxm_get_position(signed char board[129], int *side, int *ep_char, int *eval);
/** Zeroes every entry of A[], as in a freshly started program. */
void umaxm_clear_hash_table(void);
/** main()'s clearing before each legality check: F(i,0,U)A[i].K=0. */
void umaxm_clear_hash_locks(void);
/** Zeroes one entry of A[] (the differential fuzzer cleans only the slots a search touched). */
void umaxm_clear_hash_slot(long slot);
/** Sets one entry's lock to 0, as main()'s clearing does for every entry. */
void umaxm_clear_hash_lock(long slot);
/** Clears the lock of the 8 slots the root probes (J=Z=1) and of the dummy entry 0. */
void umaxm_clear_root_probe_window(void);
/** Thinks with a node budget: preset N = 1e7 - budget and call D(k,-I,I,Q,1,1,O,8,0).
 *  Returns the score; from/to are K and L afterwards; nodes = N - (1e7 - budget). */
int umaxm_think(long budget, int *from, int *to, long *nodes);
/** main()'s move sequence: N=0; K,L = move; clear all locks; legality check D(...,9,2).
 *  Returns 1 and flips the side when the move was legal (and played), else 0. */
int umaxm_play_move(int from, int to);
/** The same legality check, after clearing only the root's probe window. */
int umaxm_check_move(int from, int to);
/** The hash table A[] and its number of entries (16M + 8). */
const umaxm_hash_entry *umaxm_hash_table(void);
long umaxm_hash_entry_count(void);
/** The hash-key table T[] (1035 bytes). */
const signed char *umaxm_key_table(void);

#ifdef __cplusplus
}
#endif
#endif
