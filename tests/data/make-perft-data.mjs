// make-perft-data.mjs -- writes perft-extra.tsv: perft counts of extra
// positions chosen to stress micro-Max's rules (e.p., castling with attacked
// squares, promotions with captures, checks, double check, crowded boards).
//
// Three counts per row, all from chess.js 1.4.0 (npm):
//   perft_standard    FIDE rules, promotions to Q, R, B and N;
//   perft_queen_only  the same, but a promotion only ever makes a queen;
//   perft_umax        the queen-only count under micro-Max 3.2's own castling
//                     rule (see umaxCastles below), the count its perft gives.
// The standard count of every row is cross-checked against Stockfish's
// `go perft` (Debian package stockfish, /usr/games/stockfish) when it is
// installed; the script stops on any disagreement.
//
// How to rerun (Node >= 18, the npm registry; stockfish optional but wanted):
//
//   mkdir -p /tmp/perft-gen && cp tests/data/make-perft-data.mjs /tmp/perft-gen/
//   cd /tmp/perft-gen && npm install chess.js@1.4.0 && node make-perft-data.mjs OUT.tsv
//
// Then compare OUT.tsv with tests/data/perft-extra.tsv (or copy it there).
// A run takes a few minutes; it is deterministic.

import { Chess } from 'chess.js'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

// id, FEN, deepest depth. Depths 1..max are written, but no deeper once a
// depth went over LEAF_CAP leaves. Rows up to 2M leaves run in the test suite,
// the deeper ones in the bench-perft target.
const POSITIONS = [
  // Two black pawns may both take e4 e.p.; all four castlings available.
  ['mine01_ep_two_captors', 'r3k2r/p6p/8/8/3pPp2/8/P6P/R3K2R b KQkq e3 0 1', 5],
  // c5xd6 e.p. would expose the king to the bishop on a7; e5xd6 is legal.
  ['mine02_ep_diagonal_pin', '4k3/b7/8/2PpP3/8/8/8/6K1 w - d6 0 2', 6],
  // e5xd6 e.p. empties the fifth rank: discovered check from the rook on h5.
  ['mine03_ep_discovers_check', '8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 2', 6],
  // The double-stepped pawn gives check; two pawns can remove it e.p.
  ['mine04_ep_takes_checker', '7r/8/8/2PpP3/4K3/8/8/k7 w - d6 0 2', 6],
  // Knights guard castling squares: h2 hits f1 (no O-O for white), c6 hits
  // d8 (no O-O-O for black); the other castlings are legal.
  ['mine05_castle_knights', 'r3k2r/pp1ppppp/2N5/8/8/8/PPPPPPPn/R3K2R w KQkq - 0 1', 5],
  // The black king on g2 guards f1 and g1; the rook b8 hits b1 (allowed).
  ['mine06_castle_king_guards', '1r6/8/8/8/8/8/6k1/R3K2R w KQ - 0 1', 5],
  // Open a- and h-files: rooks capture rooks, taking castling rights away.
  ['mine07_rooks_capture_rooks', 'r3k2r/1pppppp1/8/8/8/8/1PPPPPP1/R3K2R w KQkq - 0 1', 4],
  // Black in double check (rook e1 and knight d6): only king moves.
  ['mine08_double_check', 'r3k2r/ppp2ppp/3N4/8/8/8/PPP2PPP/4RK2 b kq - 0 1', 5],
  // Promotions by push and by capture on both wings, black to move; white
  // pawns on a7/g7 eye the black rooks.
  ['mine09_promotion_captures', 'rn2k2r/P5P1/8/8/8/8/1p4p1/R3K1NR b KQkq - 0 1', 5],
  // Pawns c7 and e7 may capture the rook on d8 or promote on c8/e8.
  ['mine10_promote_capture_rook', '3r4/2P1P3/8/8/8/8/k7/4K3 w - - 0 1', 6],
  // A crowded opening position: every piece, both sides may castle.
  ['mine11_crowded', 'r1bqk2r/pppp1ppp/2n2n2/1Bb1p3/4P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 5', 4],
  // Black pawns on c2 and g2 hit d1 and f1, the squares the white king
  // passes: FIDE forbids both castlings, micro-Max allows them.
  ['mine12_castle_past_pawns', 'r3k2r/8/8/8/8/8/2p3p1/R3K2R w KQkq - 0 1', 5],
  // The white pawn f7 checks the black king: FIDE forbids castling, micro-Max
  // allows e8c8 (e8g8 lands on a square the pawn hits and stays refused).
  ['mine13_castle_out_of_pawn_check', 'r3k2r/p1p2P1p/8/8/8/8/P1P3PP/R3K2R b KQkq - 0 1', 5],
  // White pawns on b7 and g7: b7 hits c8 (O-O-O refused everywhere), g7 hits
  // f8, the square black's king passes (O-O allowed by micro-Max only).
  ['mine14_black_castle_past_pawn', 'r3k2r/1P4P1/8/8/8/8/8/R3K2R b KQkq - 0 1', 5],
]

const LEAF_CAP = 4_000_000

// ---------------------------------------------------------------------------
// micro-Max's castling rule, as read from micro-max.c. After castling, the
// passed square (f1/d1 for white) becomes the reply's e.p. square E, and the
// castling is refused when some pseudo-legal reply captures the king or lands
// on E or a square next to it on the rank (the king's old square, the rook,
// the king's new square). Pieces other than pawns land wherever they attack,
// so those attacks all count. Pawns differ: a pawn's capture onto the empty
// old king square is never generated, and a pawn's capture onto E is taken
// for an e.p. capture whose victim is looked for one rank further (f2/d2 for
// white): it only exists when a piece of the castling side stands there. A
// pawn push onto the old king square (from e2) counts.
// ---------------------------------------------------------------------------

const FILES = 'abcdefgh'

function squareName(file, rank) {
  return FILES[file] + String(rank)
}

function attackedByNonPawn(chess, square, by) {
  return chess.attackers(square, by).some((from) => chess.get(from).type !== 'p')
}

// Returns {accepted, passed} for castling `side` ('k' or 'q') of the side to
// move, or null when the castling is not even pseudo-legal (no right, pieces
// between).
function umaxCastles(chess, side) {
  const us = chess.turn()
  const them = us === 'w' ? 'b' : 'w'
  if (!chess.getCastlingRights(us)[side]) return null
  const rank = us === 'w' ? 1 : 8
  const forward = us === 'w' ? 1 : -1 // towards the enemy
  const between = side === 'k' ? [5, 6] : [1, 2, 3]
  if (between.some((file) => chess.get(squareName(file, rank)))) return null
  const origin = squareName(4, rank)
  const passed = squareName(side === 'k' ? 5 : 3, rank)
  const target = squareName(side === 'k' ? 6 : 2, rank)
  // The king on its new square may be captured (any attacker, pawns too).
  let refused = chess.isAttacked(target, them)
  // Non-pawn pieces landing on the old king square or on the rook.
  refused ||= attackedByNonPawn(chess, origin, them)
  refused ||= attackedByNonPawn(chess, passed, them)
  // An enemy pawn pushing onto the emptied old king square.
  const pusher = chess.get(squareName(4, rank + forward))
  refused ||= !!(pusher && pusher.type === 'p' && pusher.color === them)
  // An enemy pawn's "e.p." capture onto the passed square finds a victim of
  // ours one rank further.
  const behind = chess.get(squareName(side === 'k' ? 5 : 3, rank + forward))
  const pawnHitsPassed = chess.attackers(passed, them).some((from) => chess.get(from).type === 'p')
  refused ||= pawnHitsPassed && !!(behind && behind.color === us)
  return { accepted: !refused, passed, origin, target }
}

// The position after castling `side`, as a FEN (castling rights of the mover
// gone, no e.p. square, the other side to move).
function castledFen(chess, side) {
  const [board, turn, rights] = chess.fen().split(' ')
  const rows = board.split('/').map((row) => row.replace(/\d/g, (n) => '.'.repeat(Number(n))).split(''))
  const row = turn === 'w' ? 7 : 0
  const king = turn === 'w' ? 'K' : 'k'
  const rook = turn === 'w' ? 'R' : 'r'
  rows[row][4] = '.'
  if (side === 'k') {
    rows[row][7] = '.'
    rows[row][6] = king
    rows[row][5] = rook
  } else {
    rows[row][0] = '.'
    rows[row][2] = king
    rows[row][3] = rook
  }
  const placement = rows.map((r) => r.join('').replace(/\.+/g, (dots) => String(dots.length))).join('/')
  const kept = rights.split('').filter((c) => c !== '-' && (turn === 'w' ? c === c.toLowerCase() : c === c.toUpperCase()))
  return `${placement} ${turn === 'w' ? 'b' : 'w'} ${kept.length ? kept.join('') : '-'} - 0 1`
}

// ---------------------------------------------------------------------------
// One pass computes all three counts. chess.js's internal move list is used
// for speed (_moves, _makeMove, _undoMove are what its own perft() uses).
// ---------------------------------------------------------------------------

// Counts [standard, queenOnly, umax] at `depth` below the current position.
// `noPawnCaptureOnto` (umax only): after a castling that FIDE forbids but
// micro-Max plays, the reply's pawn captures onto the passed square do not
// exist (they are taken for e.p. and find no victim), so they are dropped.
function perft(chess, depth, umaxOnly = false, noPawnCaptureOnto = null) {
  const moves = chess._moves({ legal: true })
  let standard = 0
  let queenOnly = 0
  let umax = 0
  for (const move of moves) {
    if (move.flags & (32 | 64)) checkModel(chess, move)
    const underPromotion = move.promotion && move.promotion !== 'q'
    const dropped =
      noPawnCaptureOnto !== null && move.piece === 'p' && move.to === noPawnCaptureOnto && (move.flags & 2) !== 0
    if (umaxOnly && (underPromotion || dropped)) continue
    if (depth === 1) {
      standard += 1
      if (!underPromotion) queenOnly += 1
      if (!underPromotion && !dropped) umax += 1
      continue
    }
    chess._makeMove(move)
    const [s, q, u] = perft(chess, depth - 1, umaxOnly)
    chess._undoMove()
    standard += s
    if (!underPromotion) queenOnly += q
    if (!underPromotion && !dropped) umax += u
  }
  // Castlings micro-Max plays although FIDE forbids them (umax count only).
  for (const side of ['k', 'q']) {
    const castle = umaxCastles(chess, side)
    if (!castle || !castle.accepted) continue
    const fideHasIt = moves.some((m) => m.flags & (side === 'k' ? 32 : 64))
    if (fideHasIt) continue
    if (depth === 1) {
      umax += 1
      continue
    }
    const after = new Chess(castledFen(chess, side))
    umax += perft(after, depth - 1, true, squareIndex(castle.passed))[2]
  }
  return umaxOnly ? [0, 0, umax] : [standard, queenOnly, umax]
}

function squareIndex(name) {
  const file = FILES.indexOf(name[0])
  const rank = Number(name[1])
  return (8 - rank) * 16 + file // chess.js's 0x88 numbering (a8 = 0)
}

// FIDE-legal castlings must also be accepted by the micro-Max rule; if not,
// the model above is wrong somewhere, so say so.
// (Called for every FIDE castling met during the count.)
function checkModel(chess, move) {
  const castle = umaxCastles(chess, move.flags & 32 ? 'k' : 'q')
  if (!castle || !castle.accepted) throw new Error(`model refuses a FIDE castling in ${chess.fen()}`)
}

function stockfishPerft(fen, depth) {
  const run = spawnSync('/usr/games/stockfish', [], {
    input: `position fen ${fen}\ngo perft ${depth}\nquit\n`,
    encoding: 'utf8',
  })
  if (run.error) return null
  const match = run.stdout.match(/Nodes searched: (\d+)/)
  if (!match) throw new Error(`stockfish gave no count for ${fen}`)
  return Number(match[1])
}

// Sanity checks of the model against counts known from the shared table:
// Kiwipete perft 3 and 4 (FIDE queen-only 97,862 and 4,074,224; micro-Max
// counts 61 more at depth 4, all from castling out of a pawn's check).
function selfTest() {
  const kiwipete = new Chess('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1')
  const [s3, q3, u3] = perft(kiwipete, 3)
  if (s3 !== 97862 || q3 !== 97862 || u3 !== 97862) throw new Error(`kiwipete 3: ${s3} ${q3} ${u3}`)
  if (process.argv.includes('--kiwipete4')) {
    const [s4, q4, u4] = perft(kiwipete, 4)
    console.error(`kiwipete 4: standard ${s4}, queen-only ${q4}, micro-Max ${u4}`)
    if (s4 !== 4085603 || q4 !== 4074224 || u4 !== 4074224 + 61) throw new Error('kiwipete 4 model mismatch')
  }
}

function main() {
  const out = process.argv.slice(2).find((arg) => !arg.startsWith('--'))
  if (!out) {
    console.error('usage: node make-perft-data.mjs OUT.tsv [--kiwipete4]')
    process.exit(2)
  }
  selfTest()
  // Rows are appended as they are counted, so a long run shows its progress.
  fs.writeFileSync(out, 'id\tfen\tdepth\tperft_standard\tperft_queen_only\tperft_umax\n')
  for (const [id, fen, maxDepth] of POSITIONS) {
    const chess = new Chess(fen)
    if (chess.fen().split(' ').slice(0, 3).join(' ') !== fen.split(' ').slice(0, 3).join(' '))
      throw new Error(`${id}: chess.js reads the FEN differently: ${chess.fen()}`)
    for (let depth = 1; depth <= maxDepth; depth++) {
      const started = Date.now()
      const [standard, queenOnly, umax] = perft(chess, depth)
      const stockfish = stockfishPerft(fen, depth)
      if (stockfish !== null && stockfish !== standard)
        throw new Error(`${id} depth ${depth}: chess.js ${standard}, stockfish ${stockfish}`)
      fs.appendFileSync(out, [id, fen, depth, standard, queenOnly, umax].join('\t') + '\n')
      console.error(
        `${id} d${depth}: ${standard} ${queenOnly} ${umax}` +
          ` (stockfish ${stockfish === null ? 'not run' : 'agrees'}, ${(Date.now() - started) / 1000} s)`,
      )
      if (standard > LEAF_CAP) break
    }
  }
}

main()
