// make-test-data.mjs -- generates the chess test data used by the micro-Max 3.2
// test suite: positions.tsv (categorised FEN positions) and games.txt (random
// but legal games in 4-character coordinate notation).
//
// All randomness comes from a fixed-seed PRNG (mulberry32, seed SEED below,
// one derived stream per generator); chess.js 1.4.0 supplies move generation
// and the legality checks.  Rerunning the script with the same chess.js
// version therefore reproduces both files byte for byte (takes about a minute).
//
// positions.tsv categories: opening, middlegame, endgame, ep, castling,
// promotion, check, mate, stalemate, mate_in_1 (see tests/data/README.md).
// Every position is checked before it is written: chess.js validateFen, side
// not to move not in check, castling rights matching king/rook squares, e.p.
// field matching a pawn that has just made a double step, plausible material.
//
// How to rerun (needs Node >= 18 and the npm registry):
//
//   mkdir -p /tmp/x && cp tests/data/make-test-data.mjs /tmp/x/
//   cd /tmp/x && npm install chess.js@1.4.0 && node make-test-data.mjs OUTDIR
//
// OUTDIR receives positions.tsv and games.txt (README.md is hand-written and
// is not produced by this script).  To refresh the checked-in data, pass the
// absolute path of tests/data as OUTDIR.

import { Chess, validateFen } from 'chess.js'
import fs from 'node:fs'
import path from 'node:path'

const SEED = 0x4d4d3332 // "MM32"

// ---------------------------------------------------------------------------
// PRNG helpers
// ---------------------------------------------------------------------------

function mulberry32(a) {
  return function () {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Every generator gets its own stream, so changing one category does not
// shift the random numbers seen by the others.
function makeRng(salt) {
  const next = mulberry32((SEED ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0)
  const rng = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (arr) => arr[Math.floor(next() * arr.length)],
  }
  return rng
}

// ---------------------------------------------------------------------------
// Board helpers
// ---------------------------------------------------------------------------

const FILES = 'abcdefgh'
const sq = (f, r) => FILES[f] + (r + 1) // f, r are 0-based
const fileOf = (s) => FILES.indexOf(s[0])
const rankOf = (s) => Number(s[1]) - 1
const other = (c) => (c === 'w' ? 'b' : 'w')
const VALUE = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 }

function boardToFenField(grid) {
  // grid[rank][file], rank 0 = first rank; entries like 'K', 'p' or null
  const rows = []
  for (let r = 7; r >= 0; r--) {
    let row = ''
    let empty = 0
    for (let f = 0; f < 8; f++) {
      const p = grid[r][f]
      if (!p) {
        empty++
      } else {
        if (empty) row += empty
        empty = 0
        row += p
      }
    }
    if (empty) row += empty
    rows.push(row)
  }
  return rows.join('/')
}

function emptyGrid() {
  return Array.from({ length: 8 }, () => Array(8).fill(null))
}

function pieceList(chess) {
  const list = []
  for (const row of chess.board()) {
    for (const cell of row) if (cell) list.push(cell)
  }
  return list
}

function kingSquare(chess, color) {
  return chess.findPiece({ type: 'k', color })[0]
}

function checkers(chess) {
  const us = chess.turn()
  return chess.attackers(kingSquare(chess, us), other(us))
}

const posKey = (fen) => fen.split(' ').slice(0, 4).join(' ')

// ---------------------------------------------------------------------------
// Validation: chess.js' own FEN check plus the things it does not verify.
// Returns a loaded Chess instance or null.
// ---------------------------------------------------------------------------

function validate(fen, { maxCheckers = 2 } = {}) {
  const v = validateFen(fen)
  if (!v.ok) return null
  let chess
  try {
    chess = new Chess(fen)
  } catch {
    return null
  }
  const [, turn, castling, ep] = fen.split(' ')
  const pieces = pieceList(chess)
  for (const c of ['w', 'b']) {
    const mine = pieces.filter((p) => p.color === c)
    const n = (t) => mine.filter((p) => p.type === t).length
    if (n('k') !== 1) return null
    if (mine.length > 16 || n('p') > 8) return null
    const promoted =
      Math.max(0, n('q') - 1) +
      Math.max(0, n('r') - 2) +
      Math.max(0, n('b') - 2) +
      Math.max(0, n('n') - 2)
    if (n('p') + promoted > 8) return null
  }
  // the side that just moved must not have left its king in check
  if (chess.isAttacked(kingSquare(chess, other(turn)), turn)) return null
  if (checkers(chess).length > maxCheckers) return null
  // castling rights must match king and rook placement
  const has = (s, t, c) => {
    const p = chess.get(s)
    return p && p.type === t && p.color === c
  }
  const need = {
    K: ['e1', 'h1', 'w'],
    Q: ['e1', 'a1', 'w'],
    k: ['e8', 'h8', 'b'],
    q: ['e8', 'a8', 'b'],
  }
  if (castling !== '-') {
    for (const ch of castling) {
      const [ks, rs, c] = need[ch]
      if (!has(ks, 'k', c) || !has(rs, 'r', c)) return null
    }
  }
  // e.p. field must describe a pawn that has just made a double step
  if (ep !== '-') {
    const f = fileOf(ep)
    const r = rankOf(ep)
    const mover = other(turn) // the side that made the double step
    const dir = mover === 'w' ? 1 : -1
    if (chess.get(ep)) return null
    if (chess.get(sq(f, r - dir))) return null
    if (!has(sq(f, r + dir), 'p', mover)) return null
  }
  return chess
}

// ---------------------------------------------------------------------------
// Output collection
// ---------------------------------------------------------------------------

const rows = [] // [category, fen]
const seen = new Set()
const tally = {} // category -> { w: n, b: n }

function addPosition(cat, fen) {
  const key = posKey(fen)
  if (seen.has(key)) return false
  seen.add(key)
  rows.push([cat, fen])
  tally[cat] ??= { w: 0, b: 0 }
  tally[cat][fen.split(' ')[1]]++
  return true
}

// Quota bookkeeping: want[tag][colour] = how many are still wanted.
// A count may be a number (same for both colours) or { w, b }.
function makeQuota(spec) {
  const q = {}
  for (const [tag, n] of Object.entries(spec)) q[tag] = typeof n === 'number' ? { w: n, b: n } : { ...n }
  return {
    wants: (tag, c) => q[tag] && q[tag][c] > 0,
    wantsAny: (tag) => q[tag] && (q[tag].w > 0 || q[tag].b > 0),
    take: (tag, c) => q[tag][c]--,
    done: () => Object.values(q).every((x) => x.w <= 0 && x.b <= 0),
    left: (tag) => ({ ...q[tag] }),
  }
}

// ---------------------------------------------------------------------------
// Move selection for random games
// ---------------------------------------------------------------------------

const CENTRE = new Set(['d4', 'e4', 'd5', 'e5'])
const WIDE_CENTRE = new Set([
  'c3', 'd3', 'e3', 'f3', 'c4', 'f4', 'c5', 'f5', 'c6', 'd6', 'e6', 'f6',
])

// Legal moves with under-promotions removed (micro-Max only promotes to a queen).
function legalMoves(chess) {
  return chess.moves({ verbose: true }).filter((m) => !m.promotion || m.promotion === 'q')
}

function weightedPick(rng, moves, weightFn) {
  const w = moves.map(weightFn)
  const total = w.reduce((a, b) => a + b, 0)
  let x = rng.next() * total
  for (let i = 0; i < moves.length; i++) {
    x -= w[i]
    if (x < 0) return moves[i]
  }
  return moves[moves.length - 1]
}

// style: { capture, centre, develop, check, mate, pawn } bonus weights
function styledWeight(m, style, ply) {
  let w = 1
  if (m.captured) w += (style.capture || 0) * (1 + VALUE[m.captured] - VALUE[m.piece] / 10)
  if (CENTRE.has(m.to)) w += (style.centre || 0) * 2
  else if (WIDE_CENTRE.has(m.to)) w += style.centre || 0
  if ((m.piece === 'n' || m.piece === 'b') && (m.from[1] === '1' || m.from[1] === '8'))
    w += style.develop || 0
  if (m.flags.includes('k') || m.flags.includes('q')) w += style.castle || 0
  if (m.san.endsWith('+')) w += style.check || 0
  if (m.san.endsWith('#')) w += style.mate || 0
  if (m.piece === 'p') w += (style.pawn || 0) * (ply / 40)
  if (m.promotion) w += style.promote || 0
  if (m.piece === 'k' && !m.flags.includes('k') && !m.flags.includes('q')) w *= style.kingShy ?? 1
  return w
}

function playMove(chess, m) {
  return chess.move({ from: m.from, to: m.to, promotion: m.promotion })
}

// Plays `plies` half-moves; uniformMix = probability that a move is chosen
// uniformly instead of by style.  Calls visit(chess, lastMove) after every ply.
function randomGame(rng, plies, style, uniformMix, visit) {
  const chess = new Chess()
  for (let ply = 0; ply < plies; ply++) {
    if (chess.isGameOver()) break
    const moves = legalMoves(chess)
    const m = rng.chance(uniformMix)
      ? rng.pick(moves)
      : weightedPick(rng, moves, (x) => styledWeight(x, style, ply))
    const played = playMove(chess, m)
    if (visit && visit(chess, played, ply + 1) === false) break
  }
  return chess
}

function nonPawnCount(chess, color) {
  return pieceList(chess).filter((p) => p.color === color && p.type !== 'p' && p.type !== 'k')
    .length
}

const totalPieces = (chess) => pieceList(chess).length

// ---------------------------------------------------------------------------
// Random placement of pieces
// ---------------------------------------------------------------------------

// spec: array of { p: 'K'|'q'|..., files: [lo, hi], ranks: [lo, hi], edge: bool }
// (0-based, inclusive).  Pawns are always kept on ranks 2..7.
function place(rng, spec, turn, castling = '-') {
  const grid = emptyGrid()
  for (const item of spec) {
    let placed = false
    for (let tries = 0; tries < 50 && !placed; tries++) {
      let [flo, fhi] = item.files || [0, 7]
      let [rlo, rhi] = item.ranks || [0, 7]
      if (item.p.toLowerCase() === 'p') {
        rlo = Math.max(rlo, 1)
        rhi = Math.min(rhi, 6)
      }
      let f = rng.range(flo, fhi)
      let r = rng.range(rlo, rhi)
      if (item.edge) {
        // push the square to the nearest edge of the board
        if (rng.chance(0.5)) f = rng.chance(0.5) ? 0 : 7
        else r = rng.chance(0.5) ? 0 : 7
      }
      if (item.at) [f, r] = item.at
      if (grid[r][f]) continue
      grid[r][f] = item.p
      placed = true
    }
    if (!placed) return null
  }
  return `${boardToFenField(grid)} ${turn} ${castling} - 0 1`
}

// Builds a placement spec from two piece strings: strong side letters (colour
// `sc`) and weak side letters.  Optional weak king on the edge.
function simpleSpec(sc, strong, weak, { weakEdge = false } = {}) {
  const up = (s, c) => (c === 'w' ? s.toUpperCase() : s.toLowerCase())
  const wc = other(sc)
  const spec = [{ p: up('k', sc) }, { p: up('k', wc), edge: weakEdge }]
  for (const ch of strong) spec.push({ p: up(ch, sc) })
  for (const ch of weak) spec.push({ p: up(ch, wc) })
  return spec
}

// ---------------------------------------------------------------------------
// Category generators
// ---------------------------------------------------------------------------

function genOpening() {
  const rng = makeRng(1)
  const quota = makeQuota({ opening: 50 })
  const styles = [
    { capture: 4, centre: 3, develop: 3, castle: 6, kingShy: 0.2 },
    { capture: 2, centre: 5, develop: 1, castle: 2, kingShy: 0.3 },
  ]
  for (let g = 0; g < 5000 && !quota.done(); g++) {
    const plies = rng.range(2, 16)
    const mix = rng.pick([1, 0.5, 0.2])
    const chess = randomGame(rng, plies, rng.pick(styles), mix)
    if (chess.history().length !== plies || chess.isGameOver()) continue
    const fen = chess.fen()
    const c = chess.turn()
    if (quota.wants('opening', c) && validate(fen) && addPosition('opening', fen))
      quota.take('opening', c)
  }
}

function genMiddlegame() {
  const rng = makeRng(2)
  const quota = makeQuota({ middlegame: 75 })
  const style = { capture: 3, centre: 2, develop: 2, castle: 5, check: 1, kingShy: 0.3 }
  for (let g = 0; g < 5000 && !quota.done(); g++) {
    const plies = rng.range(20, 60)
    const chess = randomGame(rng, plies, style, rng.pick([0.7, 0.4, 0.1]))
    if (chess.history().length !== plies || chess.isGameOver()) continue
    if (nonPawnCount(chess, 'w') < 4 || nonPawnCount(chess, 'b') < 4) continue
    const fen = chess.fen()
    const c = chess.turn()
    if (quota.wants('middlegame', c) && validate(fen) && addPosition('middlegame', fen))
      quota.take('middlegame', c)
  }
}

const ENDGAME_TEMPLATES = [
  // [strong side, weak side] pieces besides the kings; 'race' = pawn race
  ['p', ''],
  ['r', ''],
  ['q', 'r'],
  ['race'],
  ['rp', 'r'],
  ['bn', ''],
  ['q', ''],
  ['pp', 'p'],
  ['r', 'b'],
  ['r', 'n'],
  ['bp', 'b'],
  ['np', ''],
  ['qp', 'q'],
  ['rr', 'r'],
  ['ppp', 'ppp'],
  ['rp', 'rp'],
  ['bb', ''],
  ['n', 'p'],
]

function raceSpec(rng) {
  // Each side has one passed pawn, on opposite wings, and its king stays on
  // its own pawn's wing, far from the enemy pawn.
  const left = rng.chance(0.5)
  const wf = left ? [0, 2] : [5, 7]
  const bf = left ? [5, 7] : [0, 2]
  return [
    { p: 'K', files: wf, ranks: [0, 3] },
    { p: 'k', files: bf, ranks: [4, 7] },
    { p: 'P', files: wf, ranks: [2, 4] },
    { p: 'p', files: bf, ranks: [3, 5] },
  ]
}

function genEndgame() {
  // Part 1: capture-heavy random games until little material is left.
  const rng = makeRng(3)
  const quota = makeQuota({ game: 30, placed: 30 })
  const style = { capture: 12, pawn: 1, promote: 10, kingShy: 1 }
  for (let g = 0; g < 3000 && quota.wantsAny('game'); g++) {
    const limit = rng.range(3, 10)
    let extra = -1
    let result = null
    randomGame(rng, 400, style, 0.15, (chess) => {
      if (extra < 0 && totalPieces(chess) <= limit) extra = rng.range(0, 6)
      if (extra >= 0) {
        if (extra-- === 0) {
          result = chess.fen()
          return false
        }
      }
      return true
    })
    if (!result) continue
    const chess = validate(result)
    if (!chess || chess.isGameOver()) continue
    const n = totalPieces(chess)
    if (n < 3 || n > 10) continue
    const c = chess.turn()
    if (quota.wants('game', c) && addPosition('endgame', result)) quota.take('game', c)
  }
  // Part 2: textbook material placed at random.
  const rng2 = makeRng(4)
  for (let t = 0; t < 100000 && quota.wantsAny('placed'); t++) {
    const tpl = ENDGAME_TEMPLATES[t % ENDGAME_TEMPLATES.length]
    const sc = rng2.chance(0.5) ? 'w' : 'b'
    const turn = rng2.chance(0.5) ? 'w' : 'b'
    if (!quota.wants('placed', turn)) continue
    const spec = tpl[0] === 'race' ? raceSpec(rng2) : simpleSpec(sc, tpl[0], tpl[1])
    const fen = place(rng2, spec, turn)
    if (!fen) continue
    const chess = validate(fen, { maxCheckers: 1 })
    if (!chess || chess.isGameOver()) continue
    if (addPosition('endgame', chess.fen())) quota.take('placed', turn)
  }
}

// --- en passant -------------------------------------------------------------

// Mirror a FEN top-to-bottom with colours swapped (used to turn a white
// construction into the matching black one).
function mirrorFen(fen) {
  const [board, turn, castling, ep, hm, fm] = fen.split(' ')
  const swap = (s) => s.replace(/[a-zA-Z]/g, (ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()))
  const nb = swap(board.split('/').reverse().join('/'))
  const nc = castling === '-' ? '-' : swap(castling).split('').sort((a, b) => {
    const order = 'KQkq'
    return order.indexOf(a) - order.indexOf(b)
  }).join('')
  const ne = ep === '-' ? '-' : ep[0] + (9 - Number(ep[1]))
  return [nb, other(turn), nc, ne, hm, fm].join(' ')
}

// Pre-move positions (black to move, white will capture) in which black's
// double step allows an e.p. capture that is illegal because of a pin.
function pinnedEpPreMove(rng, kind) {
  const grid = emptyGrid()
  const pf = rng.range(1, 6) // capturing white pawn file
  const ef = pf + (rng.chance(0.5) ? 1 : -1) // file of the black double step
  grid[4][pf] = 'P'
  grid[6][ef] = 'p'
  const slider = (lines) => rng.pick(lines)
  if (kind === 'rank') {
    // White king and black rook/queen on the 5th rank with the two pawns
    // between them: after exd6 both pawns vanish from the rank.
    const lo = Math.min(pf, ef)
    const hi = Math.max(pf, ef)
    if (lo === 0 || hi === 7) return null
    const kingLeft = rng.chance(0.5)
    const kf = kingLeft ? rng.range(0, lo - 1) : rng.range(hi + 1, 7)
    const rf = kingLeft ? rng.range(hi + 1, 7) : rng.range(0, lo - 1)
    grid[4][kf] = 'K'
    grid[4][rf] = slider(['r', 'q'])
  } else if (kind === 'file') {
    // Capturing pawn pinned along its file.
    grid[rng.range(0, 2)][pf] = 'K'
    grid[rng.range(6, 7)][pf] = slider(['r', 'q'])
  } else {
    // Capturing pawn pinned on the diagonal that does not contain the target.
    // d points away from the e.p. target: the slider sits up that diagonal
    // at (pf + k*d, 5th rank + k), the king down it at (pf - k*d, 5th rank - k)
    const d = pf - ef
    const steps = []
    for (let k = 1; k < 5; k++) {
      const f = pf + k * d
      const r = 4 + k
      if (f < 0 || f > 7 || r > 7) break
      steps.push([f, r])
    }
    const downs = []
    for (let k = 1; k < 5; k++) {
      const f = pf - k * d
      const r = 4 - k
      if (f < 0 || f > 7 || r < 0) break
      downs.push([f, r])
    }
    if (!steps.length || !downs.length) return null
    const [bf, br] = rng.pick(steps)
    const [kf, kr] = rng.pick(downs)
    if (grid[br][bf] || grid[kr][kf]) return null
    grid[br][bf] = slider(['b', 'q'])
    grid[kr][kf] = 'K'
  }
  // black king and a little extra material somewhere
  const extras = ['k', ...rng.pick([[], ['N'], ['p'], ['R', 'p'], ['B', 'n'], ['P', 'p', 'n']])]
  for (const p of extras) {
    for (let tries = 0; tries < 30; tries++) {
      const f = rng.int(8)
      let r = rng.int(8)
      if (p.toLowerCase() === 'p') r = rng.range(1, 6)
      if (grid[r][f]) continue
      if (f === ef && (r === 5 || r === 4)) continue // keep the double-step path clear
      grid[r][f] = p
      break
    }
  }
  return {
    fen: `${boardToFenField(grid)} b - - 0 ${rng.range(20, 45)}`,
    push: { from: sq(ef, 6), to: sq(ef, 4) },
  }
}

function genEp() {
  const rng = makeRng(5)
  // pin_*: the only e.p. capture is illegal because of a pin along the rank,
  // along the capturing pawn's file or along its diagonal
  const quota = makeQuota({ legal: 15, pin_rank: 2, pin_file: 1, pin_diag: 1, nocapture: 3 })
  const pinTags = ['pin_rank', 'pin_file', 'pin_diag']
  // Legal e.p. captures and "dead" e.p. squares from pawn-heavy random games.
  const style = { pawn: 6, centre: 2, capture: 1 }
  for (let g = 0; g < 4000 && (quota.wantsAny('legal') || quota.wantsAny('nocapture')); g++) {
    const plies = rng.range(6, 50)
    randomGame(rng, plies, style, 0.3, (chess, last, ply) => {
      if (!last.isBigPawn() || ply < 5) return true
      const c = chess.turn()
      const fen = chess.fen()
      if (fen.split(' ')[3] !== '-') {
        const epMoves = chess.moves({ verbose: true }).filter((m) => m.isEnPassant())
        if (epMoves.length && quota.wants('legal', c) && validate(fen) && rng.chance(0.5)) {
          if (addPosition('ep', fen)) quota.take('legal', c)
        }
      } else if (quota.wants('nocapture', c) && rng.chance(0.15)) {
        // no enemy pawn beside the double-stepped pawn: write the e.p. square anyway
        const target = last.from[0] + (c === 'w' ? '6' : '3')
        const parts = fen.split(' ')
        parts[3] = target
        const forced = parts.join(' ')
        const chk = validate(forced)
        if (chk && !chk.moves({ verbose: true }).some((m) => m.isEnPassant()) && !chk.isGameOver()) {
          if (addPosition('ep', forced)) quota.take('nocapture', c)
        }
      }
      return true
    })
  }
  // Pinned e.p. captures, constructed.
  const rng2 = makeRng(6)
  for (let t = 0; t < 20000 && pinTags.some((tag) => quota.wantsAny(tag)); t++) {
    const tag = pinTags[t % 3]
    const pre = pinnedEpPreMove(rng2, tag.slice(4))
    if (!pre) continue
    const blackCaptures = rng2.chance(0.5)
    let preFen = pre.fen
    let push = pre.push
    if (blackCaptures) {
      preFen = mirrorFen(preFen)
      const flip = (s) => s[0] + (9 - Number(s[1]))
      push = { from: flip(push.from), to: flip(push.to) }
    }
    const c = blackCaptures ? 'b' : 'w'
    if (!quota.wants(tag, c)) continue
    const chess = validate(preFen, { maxCheckers: 1 })
    if (!chess || chess.inCheck()) continue
    try {
      chess.move(push)
    } catch {
      continue
    }
    const shown = chess.fen()
    const forced = chess.fen({ forceEnpassantSquare: true })
    if (shown.split(' ')[3] !== '-' || forced.split(' ')[3] === '-') continue
    const chk = validate(forced, { maxCheckers: 0 })
    if (!chk || chk.isGameOver()) continue
    if (chk.moves({ verbose: true }).some((m) => m.isEnPassant())) continue
    if (addPosition('ep', forced)) quota.take(tag, c)
  }
}

// --- castling ---------------------------------------------------------------

function castlingInfo(chess) {
  const us = chess.turn()
  const them = other(us)
  const home = us === 'w' ? '1' : '8'
  const rights = chess.getCastlingRights(us)
  const inCheck = chess.inCheck()
  const sides = []
  for (const [side, right, between, pass] of [
    ['k', rights.k, ['f', 'g'], ['f', 'g']],
    ['q', rights.q, ['b', 'c', 'd'], ['d', 'c']],
  ]) {
    if (!right) continue
    const blocked = between.some((f) => chess.get(f + home))
    const attacked = pass.some((f) => chess.isAttacked(f + home, them))
    sides.push({ side, blocked, attacked, legal: !blocked && !attacked && !inCheck })
  }
  return { inCheck, sides }
}

function castlingTag(chess) {
  const { inCheck, sides } = castlingInfo(chess)
  if (!sides.length) return null
  // sanity check against chess.js (SAN of castling is O-O / O-O-O)
  const moves = chess.moves().map((m) => m.replace(/[+#]$/, ''))
  for (const s of sides) {
    const js = moves.includes(s.side === 'k' ? 'O-O' : 'O-O-O')
    if (js !== s.legal) throw new Error(`castling mismatch in ${chess.fen()}`)
  }
  if (inCheck) return 'incheck'
  const legal = sides.filter((s) => s.legal).length
  if (legal === 2) return 'both'
  if (sides.some((s) => !s.blocked && s.attacked)) return 'attacked'
  if (sides.some((s) => s.blocked)) return 'blocked'
  return 'one'
}

function castlingPlacement(rng) {
  const grid = emptyGrid()
  const rightsFor = () => rng.pick(['KQ', 'KQ', 'K', 'Q', 'K', 'Q', '', 'KQ'])
  const wr = rightsFor()
  const br = rightsFor().toLowerCase()
  grid[0][4] = 'K'
  grid[7][4] = 'k'
  if (wr.includes('K')) grid[0][7] = 'R'
  if (wr.includes('Q')) grid[0][0] = 'R'
  if (br.includes('k')) grid[7][7] = 'r'
  if (br.includes('q')) grid[7][0] = 'r'
  const put = (p, f, r) => {
    if (!grid[r][f]) grid[r][f] = p
  }
  // some pawns on the home ranks
  for (let f = 0; f < 8; f++) {
    if (rng.chance(0.55)) put('P', f, rng.chance(0.8) ? 1 : 2)
    if (rng.chance(0.55)) put('p', f, rng.chance(0.8) ? 6 : 5)
  }
  // pieces, sometimes on the squares between king and rook
  const pool = ['N', 'B', 'Q', 'R', 'N', 'B']
  for (const c of ['w', 'b']) {
    const n = rng.range(1, 4)
    for (let i = 0; i < n; i++) {
      let p = rng.pick(pool)
      p = c === 'w' ? p : p.toLowerCase()
      const home = c === 'w' ? 0 : 7
      if (rng.chance(0.35)) put(p, rng.pick([1, 2, 3, 5, 6]), home)
      else put(p, rng.int(8), rng.range(2, 5))
    }
  }
  const rights = (wr + br) || '-'
  const turn = rng.chance(0.5) ? 'w' : 'b'
  return `${boardToFenField(grid)} ${turn} ${rights} - 0 ${rng.range(8, 20)}`
}

function genCastling() {
  // tags: both sides legal, one side legal, blocked, passing an attacked
  // square, in check, only one right left in the whole FEN, from a real game
  const quota = makeQuota({ both: 4, one: 4, blocked: 5, attacked: 5, incheck: 4, single: 3, game: 4 })
  const rng = makeRng(7)
  for (let t = 0; t < 50000 && !quota.done(); t++) {
    const fen = castlingPlacement(rng)
    const chess = validate(fen, { maxCheckers: 1 })
    if (!chess || chess.isGameOver()) continue
    let tag = castlingTag(chess)
    const c = chess.turn()
    if (tag && fen.split(' ')[2].length === 1 && quota.wants('single', c)) tag = 'single'
    if (!tag || !quota.wants(tag, c)) continue
    if (addPosition('castling', chess.fen())) quota.take(tag, c)
  }
  // from random games with a preference for development
  const rng2 = makeRng(8)
  const style = { develop: 6, centre: 2, capture: 1, kingShy: 0.05 }
  for (let g = 0; g < 3000 && quota.wantsAny('game'); g++) {
    const plies = rng2.range(7, 24)
    const chess = randomGame(rng2, plies, style, 0.1)
    if (chess.history().length !== plies || chess.isGameOver()) continue
    const c = chess.turn()
    const tag = castlingTag(chess)
    if (!tag || !quota.wants('game', c)) continue
    if (!chess.moves().some((m) => m.startsWith('O-O'))) continue
    if (validate(chess.fen()) && addPosition('castling', chess.fen())) quota.take('game', c)
  }
}

// --- promotion --------------------------------------------------------------

function genPromotion() {
  const rng = makeRng(9)
  const quota = makeQuota({ push: 8, capture: 7, both: 10 })
  for (let t = 0; t < 50000 && !quota.done(); t++) {
    const turn = rng.chance(0.5) ? 'w' : 'b'
    const up = (s, c) => (c === 'w' ? s.toUpperCase() : s.toLowerCase())
    const them = other(turn)
    const seventh = turn === 'w' ? 6 : 1
    const eighth = turn === 'w' ? 7 : 0
    const grid = emptyGrid()
    const nPawns = rng.chance(0.25) ? 2 : 1
    for (let i = 0; i < nPawns; i++) {
      const f = rng.int(8)
      if (grid[seventh][f]) continue
      grid[seventh][f] = up('p', turn)
      // maybe an enemy piece in front and/or diagonally in front
      if (rng.chance(0.35)) grid[eighth][f] = up(rng.pick(['r', 'n', 'b', 'q']), them)
      for (const df of [-1, 1]) {
        const g = f + df
        if (g >= 0 && g < 8 && !grid[eighth][g] && rng.chance(0.35))
          grid[eighth][g] = up(rng.pick(['r', 'n', 'b', 'q']), them)
      }
    }
    const spec = [{ p: 'K' }, { p: 'k' }]
    const nExtra = rng.range(0, 8)
    for (let i = 0; i < nExtra; i++) {
      const c = rng.chance(0.5) ? 'w' : 'b'
      spec.push({ p: up(rng.pick(['p', 'p', 'n', 'b', 'r', 'q']), c) })
    }
    let ok = true
    for (const item of spec) {
      let done = false
      for (let tries = 0; tries < 40 && !done; tries++) {
        const f = rng.int(8)
        const r = item.p.toLowerCase() === 'p' ? rng.range(1, 6) : rng.int(8)
        if (grid[r][f]) continue
        grid[r][f] = item.p
        done = true
      }
      ok = ok && done
    }
    if (!ok) continue
    const fen = `${boardToFenField(grid)} ${turn} - - 0 ${rng.range(30, 70)}`
    const chess = validate(fen, { maxCheckers: 1 })
    if (!chess || chess.isGameOver()) continue
    const promos = chess.moves({ verbose: true }).filter((m) => m.isPromotion())
    if (!promos.length) continue
    const push = promos.some((m) => !m.isCapture())
    const cap = promos.some((m) => m.isCapture())
    const tag = push && cap ? 'both' : push ? 'push' : 'capture'
    if (!quota.wants(tag, turn)) continue
    if (addPosition('promotion', chess.fen())) quota.take(tag, turn)
  }
}

// --- check, mate, mate in one ----------------------------------------------

function mateMoves(chess) {
  return chess.moves({ verbose: true }).filter((m) => m.san.endsWith('#'))
}

// Random games that like to give check and never miss a mate in one.
function genGameCheckAndMate(checkQuota, mateQuota, m1Quota) {
  const rng = makeRng(10)
  const style = { capture: 4, check: 5, mate: 1e6, centre: 1, develop: 1, promote: 20 }
  for (let g = 0; g < 4000; g++) {
    if (checkQuota.done() && mateQuota.game.done() && m1Quota.game.done()) break
    const plies = rng.range(10, 200)
    let prev = null
    randomGame(rng, plies, style, 0.1, (chess, last, ply) => {
      const fen = chess.fen()
      const c = chess.turn()
      if (chess.isCheckmate()) {
        if (mateQuota.game.wants('mate', c) && validate(fen) && addPosition('mate', fen)) {
          mateQuota.game.take('mate', c)
          const pc = other(c)
          if (prev && m1Quota.game.wants('m1', pc) && validate(prev) && addPosition('mate_in_1', prev))
            m1Quota.game.take('m1', pc)
        }
        return false
      }
      if (chess.inCheck() && ply > 4 && rng.chance(0.2) && checkQuota.wants('check', c)) {
        if (validate(fen) && addPosition('check', fen)) checkQuota.take('check', c)
      }
      prev = fen
      return true
    })
  }
}

const MATE_TEMPLATES = [
  ['q', ''],
  ['r', ''],
  ['rr', ''],
  ['q', 'p'],
  ['qb', 'pp'],
  ['rb', 'n'],
  ['rn', 'p'],
  ['qn', 'r'],
  ['bb', ''],
  ['rp', 'p'],
]

function genPlacedMates(mateQuota, m1Quota) {
  const rng = makeRng(11)
  for (let t = 0; t < 2000000; t++) {
    if (mateQuota.placed.done() && m1Quota.placed.done()) break
    const tpl = MATE_TEMPLATES[t % MATE_TEMPLATES.length]
    const sc = rng.chance(0.5) ? 'w' : 'b'
    const wantMate = !mateQuota.placed.done() && (m1Quota.placed.done() || rng.chance(0.5))
    // for a mate the weak side is to move; for a mate in one the strong side
    const turn = wantMate ? other(sc) : sc
    if (wantMate && !mateQuota.placed.wants('mate', turn)) continue
    if (!wantMate && !m1Quota.placed.wants('m1', turn)) continue
    const fen = place(rng, simpleSpec(sc, tpl[0], tpl[1], { weakEdge: rng.chance(0.8) }), turn)
    if (!fen) continue
    const chess = validate(fen, { maxCheckers: 1 })
    if (!chess) continue
    if (wantMate) {
      if (!chess.isCheckmate()) continue
      if (addPosition('mate', chess.fen())) mateQuota.placed.take('mate', turn)
    } else {
      if (chess.isGameOver() || chess.inCheck()) continue
      if (!mateMoves(chess).length) continue
      if (addPosition('mate_in_1', chess.fen())) m1Quota.placed.take('m1', turn)
    }
  }
}

function genCheckMates() {
  const checkQuota = makeQuota({ check: 20 })
  const mateQuota = { game: makeQuota({ mate: 8 }) }
  const m1Quota = { game: makeQuota({ m1: 7 }) }
  genGameCheckAndMate(checkQuota, mateQuota, m1Quota)
  // whatever the games did not supply is made up by placement
  const sum = (a, b) => ({ w: a.w + b.w, b: a.b + b.b })
  mateQuota.placed = makeQuota({ mate: sum({ w: 7, b: 7 }, mateQuota.game.left('mate')) })
  m1Quota.placed = makeQuota({ m1: sum({ w: 8, b: 8 }, m1Quota.game.left('m1')) })
  genPlacedMates(mateQuota, m1Quota)
}

// --- stalemate --------------------------------------------------------------

const STALEMATE_TEMPLATES = [
  { strong: 'q', weak: '' },
  { strong: 'r', weak: '' },
  { strong: 'qp', weak: '' },
  { strong: 'rb', weak: '' },
  { strong: 'p', weak: '' },
  { strong: 'q', weak: 'blocked' },
  { strong: 'rn', weak: 'blocked' },
  { strong: 'bb', weak: '' },
  { strong: 'rr', weak: 'blocked' },
  { strong: 'qb', weak: 'pblocked' },
]

function genStalemate() {
  const rng = makeRng(12)
  const quota = makeQuota({ stalemate: 15 })
  const up = (s, c) => (c === 'w' ? s.toUpperCase() : s.toLowerCase())
  for (let t = 0; t < 3000000 && !quota.done(); t++) {
    const tpl = STALEMATE_TEMPLATES[t % STALEMATE_TEMPLATES.length]
    const sc = rng.chance(0.5) ? 'w' : 'b'
    const wc = other(sc)
    if (!quota.wants('stalemate', wc)) continue
    const spec = simpleSpec(sc, tpl.strong, '', { weakEdge: rng.chance(0.9) })
    if (tpl.weak) {
      // a weak-side pawn that is blocked head-on by an enemy pawn (or piece)
      const f = rng.int(8)
      const r = rng.range(2, 5)
      const dir = wc === 'w' ? 1 : -1
      spec.push({ p: up('p', wc), at: [f, r] })
      spec.push({ p: up(tpl.weak === 'blocked' ? 'p' : 'b', sc), at: [f, r + dir] })
    }
    const fen = place(rng, spec, wc)
    if (!fen) continue
    const chess = validate(fen, { maxCheckers: 0 })
    if (!chess || !chess.isStalemate()) continue
    if (addPosition('stalemate', chess.fen())) quota.take('stalemate', wc)
  }
}

// ---------------------------------------------------------------------------
// games.txt
// ---------------------------------------------------------------------------

function genOneGame(rng) {
  const chess = new Chess()
  const target = rng.range(60, 160)
  const f = { OOw: 0, OOOw: 0, OOb: 0, OOOb: 0, epw: 0, epb: 0, prw: 0, prb: 0, cap: 0 }
  const moves = []
  let ending = 'length limit'
  for (let ply = 0; ply < target; ply++) {
    if (chess.isGameOver()) break
    const legal = legalMoves(chess)
    const pick = (pred, p) => {
      const c = legal.filter(pred)
      return c.length && rng.chance(p) ? rng.pick(c) : null
    }
    let m =
      pick((x) => x.isPromotion(), 0.9) ||
      pick((x) => x.isEnPassant(), 0.95) ||
      pick((x) => x.isQueensideCastle(), 0.9) ||
      pick((x) => x.isKingsideCastle(), 0.8)
    if (!m) {
      const late = ply >= 40
      m = weightedPick(rng, legal, (x) => {
        let w = styledWeight(
          x,
          late
            ? { capture: 3, pawn: 8, centre: 0.5 }
            : { capture: 2, centre: 3, develop: 5, kingShy: 0.05, pawn: 1 },
          ply,
        )
        // a double step landing beside an enemy pawn invites e.p.
        if (x.isBigPawn()) {
          const tf = fileOf(x.to)
          const tr = rankOf(x.to)
          for (const df of [-1, 1]) {
            const g = tf + df
            if (g < 0 || g > 7) continue
            const p = chess.get(sq(g, tr))
            if (p && p.type === 'p' && p.color !== x.color) w += 6
          }
        }
        // moving the queen's-side pieces out makes O-O-O possible
        if (!late && /^[bcd][18]$/.test(x.from) && x.piece !== 'p') w += 3
        return w
      })
    }
    const c = m.color
    if (m.isKingsideCastle()) f['OO' + c]++
    if (m.isQueensideCastle()) f['OOO' + c]++
    if (m.isEnPassant()) f['ep' + c]++
    if (m.isPromotion()) f['pr' + c]++
    if (m.isCapture() && !m.isEnPassant()) f.cap++
    playMove(chess, m)
    moves.push(m.from + m.to) // 4 characters, promotion piece implied (queen)
  }
  if (chess.isCheckmate()) ending = 'checkmate'
  else if (chess.isStalemate()) ending = 'stalemate'
  else if (chess.isThreefoldRepetition()) ending = 'threefold repetition'
  else if (chess.isInsufficientMaterial()) ending = 'insufficient material'
  else if (chess.isDrawByFiftyMoves()) ending = '50-move rule'
  return { moves, f, ending }
}

function describeGame(n, g) {
  const f = g.f
  const parts = []
  if (f.OOw) parts.push('O-O white')
  if (f.OOOw) parts.push('O-O-O white')
  if (f.OOb) parts.push('O-O black')
  if (f.OOOb) parts.push('O-O-O black')
  const ep = f.epw + f.epb
  if (ep) parts.push(`e.p. x${ep} (white ${f.epw}, black ${f.epb})`)
  if (f.prw) parts.push(`promotion white x${f.prw}`)
  if (f.prb) parts.push(`promotion black x${f.prb}`)
  parts.push(`other captures x${f.cap}`)
  parts.push(`${g.moves.length} plies`)
  parts.push(`ends: ${g.ending}`)
  return `# game ${n}: ${parts.join(', ')}`
}

function genGames() {
  const rng = makeRng(13)
  const cands = []
  for (let i = 0; i < 80; i++) {
    const g = genOneGame(rng)
    if (g.moves.length >= 60) cands.push(g)
  }
  // greedy choice so that the 8 games together show every feature
  const needs = { OOw: 1, OOOw: 1, OOb: 1, OOOb: 1, ep: 3, prw: 2, prb: 2, cap: 1 }
  const have = { OOw: 0, OOOw: 0, OOb: 0, OOOb: 0, ep: 0, prw: 0, prb: 0, cap: 0 }
  const val = (g, k) => (k === 'ep' ? g.f.epw + g.f.epb : g.f[k])
  const gain = (g) =>
    Object.keys(needs).reduce((s, k) => s + Math.min(val(g, k), Math.max(0, needs[k] - have[k])), 0)
  const chosen = []
  while (chosen.length < 8) {
    let best = -1
    let bestGain = -1
    for (let i = 0; i < cands.length; i++) {
      if (chosen.includes(i)) continue
      const gg = gain(cands[i])
      if (gg > bestGain) {
        bestGain = gg
        best = i
      }
    }
    if (best < 0) throw new Error('not enough candidate games')
    chosen.push(best)
    for (const k of Object.keys(needs)) have[k] += val(cands[best], k)
  }
  for (const k of Object.keys(needs))
    if (have[k] < needs[k]) throw new Error(`games lack feature ${k}`)
  chosen.sort((a, b) => a - b)
  const lines = []
  chosen.forEach((idx, n) => {
    lines.push(describeGame(n + 1, cands[idx]))
    lines.push(cands[idx].moves.join(' '))
  })
  return lines.join('\n') + '\n'
}

// Replays a games.txt line with a fresh board to prove it is legal.
function replay(line) {
  const chess = new Chess()
  for (const mv of line.split(' ')) {
    if (!/^[a-h][1-8][a-h][1-8]$/.test(mv)) throw new Error(`bad move text ${mv}`)
    chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: 'q' })
  }
}

// ---------------------------------------------------------------------------
// Final checks and output
// ---------------------------------------------------------------------------

function verifyRows() {
  const keys = new Set()
  for (const [cat, fen] of rows) {
    const chess = validate(fen)
    if (!chess) throw new Error(`invalid ${cat} ${fen}`)
    const key = posKey(fen)
    if (keys.has(key)) throw new Error(`duplicate ${fen}`)
    keys.add(key)
    const ep = fen.split(' ')[3]
    const moves = chess.moves({ verbose: true })
    const bad = (why) => {
      throw new Error(`${cat} ${fen}: ${why}`)
    }
    switch (cat) {
      case 'opening':
      case 'middlegame':
        if (!moves.length) bad('no legal move')
        break
      case 'endgame': {
        const n = totalPieces(chess)
        if (n < 3 || n > 10 || !moves.length) bad('not an endgame')
        break
      }
      case 'ep':
        if (ep === '-') bad('no e.p. square')
        break
      case 'castling': {
        const r = chess.getCastlingRights(chess.turn())
        if (!r.k && !r.q) bad('no castling rights for side to move')
        break
      }
      case 'promotion':
        if (!moves.some((m) => m.isPromotion())) bad('no promotion')
        break
      case 'check':
        if (!chess.inCheck() || chess.isCheckmate()) bad('not a plain check')
        break
      case 'mate':
        if (!chess.isCheckmate()) bad('not mate')
        break
      case 'stalemate':
        if (!chess.isStalemate()) bad('not stalemate')
        break
      case 'mate_in_1':
        if (chess.isGameOver() || !moves.some((m) => m.san.endsWith('#'))) bad('no mate in one')
        break
      default:
        bad('unknown category')
    }
  }
  for (const [cat, t] of Object.entries(tally))
    if (!t.w || !t.b) throw new Error(`category ${cat} lacks a colour`)
}

function main() {
  const outDir = process.argv[2]
  if (!outDir) {
    console.error('usage: node make-test-data.mjs OUTDIR')
    process.exit(2)
  }
  fs.mkdirSync(outDir, { recursive: true })

  genOpening()
  genMiddlegame()
  genEndgame()
  genEp()
  genCastling()
  genPromotion()
  genCheckMates()
  genStalemate()
  verifyRows()

  const order = [
    'opening', 'middlegame', 'endgame', 'ep', 'castling', 'promotion', 'check', 'mate',
    'stalemate', 'mate_in_1',
  ]
  const sorted = order.flatMap((cat) => rows.filter((r) => r[0] === cat))
  const tsv = ['category\tfen', ...sorted.map((r) => r.join('\t'))].join('\n') + '\n'
  fs.writeFileSync(path.join(outDir, 'positions.tsv'), tsv)

  const games = genGames()
  for (const line of games.split('\n')) if (line && !line.startsWith('#')) replay(line)
  fs.writeFileSync(path.join(outDir, 'games.txt'), games)

  for (const cat of order) {
    const t = tally[cat] || { w: 0, b: 0 }
    console.log(`${cat.padEnd(11)} ${String(t.w + t.b).padStart(4)}  (w ${t.w}, b ${t.b})`)
  }
  console.log(`total       ${String(rows.length).padStart(4)}`)
  process.stdout.write(games.split('\n').filter((l) => l.startsWith('#')).join('\n') + '\n')
}

main()
