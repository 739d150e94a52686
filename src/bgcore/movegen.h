/*
 * movegen.h -- legal-play generation for backgammon, plain C, no Python.
 *
 * Board convention (see README): 26 signed bytes seen from the player on
 * roll.  b[1..24] are points in the mover's numbering (moving 24 -> 1, bearing
 * off past 1), positive = mover's checkers, negative = opponent's; b[25] is
 * the mover's bar (>= 0, entering from "point 25"); b[0] is the opponent's
 * bar as a negative number (<= 0).  Borne-off checkers are implicit.
 *
 * The generator keeps the board plus two occupancy bitmasks (bit p = point p):
 *   own    : points 1..25 holding at least one of the mover's checkers
 *   closed : points 1..24 holding two or more opposing checkers (RULES 3.3)
 * `closed` never changes during a turn: the mover can only hit blots.  The
 * set of sources that may move a die d is then a few shifts and ands.
 *
 * Rules implemented (sections of shared/RULES.md):
 *   3.1-3.4  single steps, landing on open points, hits (also on the way)
 *   4.1/4.2  maximal dice and the higher-die rule, over the whole turn
 *   4.4      no legal move: exactly one play, the position itself
 *   5.1-5.5  bar first, entry on 25-d, partial entry
 *   6.1-6.7  bearing off, mid-turn included; larger die from the highest point
 *   13.2     one play per distinct resulting position
 *
 * Distinct plays.  Doubles are enumerated with non-increasing source points.
 * Every multiset of steps can be played in that order (a step from a higher
 * point never depends on one from a lower point), and with one die value the
 * step graph "p -> p-d or off" is a tree rooted at "off", so distinct step
 * multisets give distinct positions: doubles need no deduplication at all.
 * Non-doubles are enumerated in both die orders; results using both dice are
 * deduplicated with a small hash table (exact: a hash hit is confirmed by
 * comparing the 26 bytes).  A pass has at most 15 x 15 leaves (15 checkers),
 * so 2 x 225 <= 512 keys: a 1024-slot table never fills beyond half.
 *
 * Results are appended to a caller-owned growable buffer: there is no cap on
 * the number of plays of a roll.  Nothing here touches Python, so everything
 * runs without the GIL and is safe from many threads as long as each thread
 * uses its own bg_gen.
 */
#ifndef BGCORE_MOVEGEN_H
#define BGCORE_MOVEGEN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"

#define BG_NPTS 26
#define BG_BAR 25
#define BG_MAXCHK 15
#define BG_HT_SIZE 1024

/* Error codes of bg_validate (0 = valid). */
#define BG_OK 0
#define BG_E_OWN_BAR 1     /* b[25] < 0 */
#define BG_E_OPP_BAR 2     /* b[0] > 0 */
#define BG_E_OWN_COUNT 3   /* more than 15 checkers of the mover */
#define BG_E_OPP_COUNT 4   /* more than 15 opposing checkers */
#define BG_E_RANGE 5       /* a value outside -15..15 */
#define BG_E_GAME_OVER 6   /* a side has no checkers left (batch rows) */
#define BG_E_DICE 7        /* a die outside 1..6 (batch rows) */

/* Results of bg_sides (who still has checkers). */
#define BG_BOTH_PLAYING 0
#define BG_OWN_DONE 1      /* the mover has no checkers left */
#define BG_OPP_DONE 2      /* the opponent has no checkers left */
#define BG_BOTH_DONE 3

#if defined(_MSC_VER)
#include <intrin.h>
static __inline int bg_highbit(uint32_t m) { unsigned long i; _BitScanReverse(&i, m); return (int)i; }
#else
static inline int bg_highbit(uint32_t m) { return 31 - __builtin_clz(m); }
#endif

typedef struct {
    int8_t *pos;       /* n results, BG_NPTS bytes each */
    uint8_t *moves;    /* n move lists, 8 bytes each: (from, to) x 4, to 0 = off */
    int64_t n;
    int64_t cap;
} bg_buf;

typedef struct {
    int8_t b[32];      /* working board, bytes 26..31 stay zero (hashing) */
    uint32_t own;
    uint32_t closed;
    int outside;       /* mover's checkers on points 7..25 */
    int rank;          /* best play class emitted in this call, -1 none */
    uint64_t h;        /* H(working board) - H(start), non-doubles only */
    int want_moves;
    int depth;         /* dice used by the plays of the last call */
    int64_t start;     /* first result of the current call */
    uint8_t path[8];
    bg_buf out;
    uint64_t keys[BG_HT_SIZE];
    int32_t idx[BG_HT_SIZE];
    uint16_t used[BG_HT_SIZE];
    int nused;
} bg_gen;

/* ------------------------------------------------------------------ */
/* Scanning a board: masks and counts in one pass                      */

#if !defined(BG_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#include <emmintrin.h>
#define BG_SSE2 1
#elif !defined(BG_NO_SIMD) && (defined(__aarch64__) || defined(_M_ARM64))
#include <arm_neon.h>
#define BG_NEON 1

/* SSE2's movemask for NEON: one bit per byte of a 0x00/0xFF mask. */
static inline uint32_t bg_neon_movemask(uint8x16_t m)
{
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t x = vandq_u8(m, vld1q_u8(weights));
    return (uint32_t)vaddv_u8(vget_low_u8(x)) | ((uint32_t)vaddv_u8(vget_high_u8(x)) << 8);
}
#endif

typedef struct {
    uint32_t own;      /* bit p: b[p] > 0 */
    uint32_t closed;   /* bit p: b[p] <= -2 */
    int own_total;     /* mover's checkers on board and bar */
    int opp_total;     /* opponent's checkers on board and bar */
    int outside;       /* mover's checkers on 7..25 */
    int out_of_range;  /* some value outside -15..15 */
} bg_scan_t;

/* The portable scan: the fallback of bg_scan and the reference its SIMD
 * versions are checked against (tools/check_simd.c). */
static inline void bg_scan_plain(const int8_t *b32, bg_scan_t *r)
{
    int p;
    memset(r, 0, sizeof *r);
    for (p = 0; p < BG_NPTS; p++) {
        int v = b32[p];
        if (v < -BG_MAXCHK || v > BG_MAXCHK) r->out_of_range = 1;
        if (v > 0) {
            r->own_total += v;
            if (p >= 1) r->own |= 1u << p;
            if (p > 6) r->outside += v;
        } else if (v < 0) {
            r->opp_total -= v;
            if (v <= -2 && p >= 1 && p <= 24) r->closed |= 1u << p;
        }
    }
}

/* b32: 32 readable bytes, bytes 26..31 zero. */
static inline void bg_scan(const int8_t *b32, bg_scan_t *r)
{
#ifdef BG_SSE2
    const __m128i z = _mm_setzero_si128();
    const __m128i m1 = _mm_set1_epi8(-1), p15 = _mm_set1_epi8(15), n15 = _mm_set1_epi8(-15);
    /* byte index >= 7 (for `outside`); bytes 26..31 are zero anyway */
    const __m128i home_lo = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0);
    __m128i lo = _mm_loadu_si128((const __m128i *)b32);
    __m128i hi = _mm_loadu_si128((const __m128i *)(b32 + 16));
    __m128i gl = _mm_cmpgt_epi8(lo, z), gh = _mm_cmpgt_epi8(hi, z);
    __m128i nl = _mm_cmpgt_epi8(z, lo), nh = _mm_cmpgt_epi8(z, hi);
    __m128i pl = _mm_and_si128(lo, gl), ph = _mm_and_si128(hi, gh);
    __m128i ql = _mm_and_si128(_mm_sub_epi8(z, lo), nl), qh = _mm_and_si128(_mm_sub_epi8(z, hi), nh);
    __m128i s_own = _mm_add_epi64(_mm_sad_epu8(pl, z), _mm_sad_epu8(ph, z));
    __m128i s_opp = _mm_add_epi64(_mm_sad_epu8(ql, z), _mm_sad_epu8(qh, z));
    __m128i s_out = _mm_add_epi64(_mm_sad_epu8(_mm_and_si128(pl, home_lo), z), _mm_sad_epu8(ph, z));
    __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpgt_epi8(lo, p15), _mm_cmpgt_epi8(n15, lo)),
                               _mm_or_si128(_mm_cmpgt_epi8(hi, p15), _mm_cmpgt_epi8(n15, hi)));
    r->own = ((uint32_t)_mm_movemask_epi8(gl) | ((uint32_t)_mm_movemask_epi8(gh) << 16)) & ~1u;
    r->closed = ((uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(lo, m1)) |
                 ((uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(hi, m1)) << 16)) & 0x1FFFFFEu;
    r->own_total = _mm_cvtsi128_si32(s_own) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s_own, s_own));
    r->opp_total = _mm_cvtsi128_si32(s_opp) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s_opp, s_opp));
    r->outside = _mm_cvtsi128_si32(s_out) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s_out, s_out));
    r->out_of_range = _mm_movemask_epi8(bad) != 0;
#elif defined(BG_NEON)
    static const uint8_t outside_lo[16] = {0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    const int8x16_t z = vdupq_n_s8(0), m1 = vdupq_n_s8(-1);
    const int8x16_t p15 = vdupq_n_s8(15), n15 = vdupq_n_s8(-15);
    int8x16_t lo = vld1q_s8(b32), hi = vld1q_s8(b32 + 16);
    uint8x16_t gl = vcgtq_s8(lo, z), gh = vcgtq_s8(hi, z);
    uint8x16_t nl = vcltq_s8(lo, z), nh = vcltq_s8(hi, z);
    uint8x16_t pl = vandq_u8(vreinterpretq_u8_s8(lo), gl), ph = vandq_u8(vreinterpretq_u8_s8(hi), gh);
    uint8x16_t ql = vandq_u8(vreinterpretq_u8_s8(vnegq_s8(lo)), nl);
    uint8x16_t qh = vandq_u8(vreinterpretq_u8_s8(vnegq_s8(hi)), nh);
    uint8x16_t bad = vorrq_u8(vorrq_u8(vcgtq_s8(lo, p15), vcltq_s8(lo, n15)),
                              vorrq_u8(vcgtq_s8(hi, p15), vcltq_s8(hi, n15)));
    r->own = (bg_neon_movemask(gl) | (bg_neon_movemask(gh) << 16)) & ~1u;
    r->closed = (bg_neon_movemask(vcltq_s8(lo, m1)) |
                 (bg_neon_movemask(vcltq_s8(hi, m1)) << 16)) & 0x1FFFFFEu;
    r->own_total = (int)vaddlvq_u8(pl) + (int)vaddlvq_u8(ph);
    r->opp_total = (int)vaddlvq_u8(ql) + (int)vaddlvq_u8(qh);
    r->outside = (int)vaddlvq_u8(vandq_u8(pl, vld1q_u8(outside_lo))) + (int)vaddlvq_u8(ph);
    r->out_of_range = vmaxvq_u8(bad) != 0;
#else
    bg_scan_plain(b32, r);
#endif
}

static inline void bg_pad(const int8_t *b, int8_t *b32)
{
    memcpy(b32, b, BG_NPTS);
    memset(b32 + BG_NPTS, 0, 32 - BG_NPTS);
}

static inline int bg_check(const bg_scan_t *r, const int8_t *b)
{
    if (r->out_of_range) return BG_E_RANGE;
    if (b[BG_BAR] < 0) return BG_E_OWN_BAR;
    if (b[0] > 0) return BG_E_OPP_BAR;
    if (r->own_total > BG_MAXCHK) return BG_E_OWN_COUNT;
    if (r->opp_total > BG_MAXCHK) return BG_E_OPP_COUNT;
    return BG_OK;
}

static inline int bg_side_flags(const bg_scan_t *r)
{
    return (r->own_total ? 0 : BG_OWN_DONE) | (r->opp_total ? 0 : BG_OPP_DONE);
}

/* 0 if the 26-byte board is valid, else a BG_E_* code. */
static inline int bg_validate(const int8_t *b)
{
    int8_t b32[32];
    bg_scan_t r;
    bg_pad(b, b32);
    bg_scan(b32, &r);
    return bg_check(&r, b32);
}

/* Which sides have no checkers left (BG_BOTH_PLAYING when both have some). */
static inline int bg_sides(const int8_t *b)
{
    int8_t b32[32];
    bg_scan_t r;
    bg_pad(b, b32);
    bg_scan(b32, &r);
    return bg_side_flags(&r);
}

static inline void bg_swap(const int8_t *b, int8_t *s)
{
    int i;
    for (i = 0; i < BG_NPTS; i++) s[i] = (int8_t)-b[BG_NPTS - 1 - i];
}

#ifdef BG_SSE2
static inline __m128i bg_rev16(__m128i x)
{
    x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
    x = _mm_shufflelo_epi16(x, 0x1B);
    x = _mm_shufflehi_epi16(x, 0x1B);
    return _mm_shuffle_epi32(x, 0x4E);
}
#endif

/*
 * bg_swap for hot loops: reads 32 bytes at b (bytes 26..31 may be anything)
 * and writes 32 at s (26..31 zero).  With R the 32 bytes reversed,
 * s[i] = -b[25 - i] = -R[i + 6].
 */
static inline void bg_swap32(const int8_t *b, int8_t *s)
{
#ifdef BG_SSE2
    const __m128i z = _mm_setzero_si128();
    __m128i r0 = bg_rev16(_mm_loadu_si128((const __m128i *)(b + 16)));  /* R[0..15] */
    __m128i r1 = bg_rev16(_mm_loadu_si128((const __m128i *)b));         /* R[16..31] */
    __m128i lo = _mm_or_si128(_mm_srli_si128(r0, 6), _mm_slli_si128(r1, 10));
    __m128i hi = _mm_srli_si128(r1, 6);
    _mm_storeu_si128((__m128i *)s, _mm_sub_epi8(z, lo));
    _mm_storeu_si128((__m128i *)(s + 16), _mm_sub_epi8(z, hi));
#elif defined(BG_NEON)
    int8x16_t r0 = vrev64q_s8(vld1q_s8(b + 16)), r1 = vrev64q_s8(vld1q_s8(b));
    r0 = vextq_s8(r0, r0, 8);                                   /* R[0..15] */
    r1 = vextq_s8(r1, r1, 8);                                   /* R[16..31] */
    vst1q_s8(s, vnegq_s8(vextq_s8(r0, r1, 6)));                 /* R[6..21] */
    vst1q_s8(s + 16, vnegq_s8(vextq_s8(r1, vdupq_n_s8(0), 6))); /* R[22..31], zeros */
#else
    bg_swap(b, s);
    memset(s + BG_NPTS, 0, 32 - BG_NPTS);
#endif
}

/*
 * A linear hash: H(b) = sum of BG_R[i] * b[i] (mod 2^64).  Leaves of one
 * call differ from their common parent only by their steps, so each leaf is
 * keyed by H(leaf) - H(parent), the sum of its steps' deltas, computed
 * without reading the leaf back.  Only a filter: equal keys are confirmed by
 * comparing the 26 bytes, so results stay exact.
 */
static const uint64_t BG_R[BG_NPTS] = {
    0x6CC6BE1805FDF179ULL,
    0x4BA71AB7AC0504A5ULL,
    0xDAE85D0928398F9FULL,
    0x0B8E90E9F6466D5FULL,
    0x4E6980EE651011CBULL,
    0xC4E08E67B822B63BULL,
    0x28B58AB4D47A9A79ULL,
    0xA02BFF2F31BFA6AFULL,
    0x1414F6B506D002DBULL,
    0x25318BF27B885975ULL,
    0x3D3DB70B0D99ED21ULL,
    0x87A152F460CA36FFULL,
    0x167DD69A83F614DDULL,
    0xE7FB3F46C9374389ULL,
    0xFDA536A3A434D6F9ULL,
    0x9D4615766CD44F91ULL,
    0x9D97FCE60131D9B7ULL,
    0x9EB22B5A9059E86BULL,
    0x0D8EB596C8965F79ULL,
    0x3DDAB6B5EDB6CE2FULL,
    0x70CC76289BD7F38BULL,
    0x3CE1B34701879C05ULL,
    0xB450D4A77DEF588BULL,
    0x0E8A1AB6642C2EB7ULL,
    0x9088F20A05DBB51BULL,
    0xD78217876FDC5385ULL
};

/* H(after) - H(before) for one step s -> s - d on board b (before the step). */
static inline uint64_t bg_hash_step(const int8_t *b, int s, int d)
{
    int t = s - d;
    uint64_t delta = 0 - BG_R[s];
    if (t >= 1) {
        if (b[t] == -1) delta += 2 * BG_R[t] - BG_R[0];   /* hit: -1 -> +1, one more on their bar */
        else delta += BG_R[t];
    }
    return delta;
}

/* ------------------------------------------------------------------ */
/* Buffers                                                             */

static inline void bg_buf_free(bg_buf *o)
{
    free(o->pos); free(o->moves);
    o->pos = NULL; o->moves = NULL; o->n = o->cap = 0;
}

static inline int bg_buf_reserve(bg_buf *o, int64_t need)
{
    int64_t cap;
    int8_t *p; uint8_t *m;
    if (need <= o->cap) return 0;
    cap = o->cap ? o->cap : 256;
    while (cap < need) cap *= 2;
    /* 32 bytes of slack: any row may be read as 32 bytes (bg_swap32) */
    p = (int8_t *)realloc(o->pos, (size_t)cap * BG_NPTS + 32);
    if (!p) return -1;
    o->pos = p;
    m = (uint8_t *)realloc(o->moves, (size_t)cap * 8);
    if (!m) return -1;
    o->moves = m;
    o->cap = cap;
    return 0;
}

static inline bg_gen *bg_gen_new(void)
{
    return (bg_gen *)calloc(1, sizeof(bg_gen));
}

static inline void bg_gen_free(bg_gen *g)
{
    if (g) { bg_buf_free(&g->out); free(g); }
}

/* ------------------------------------------------------------------ */
/* Single steps                                                        */

/* Copies board into g and sets its masks; r receives the whole scan. */
static inline void bg_load_scan(bg_gen *g, const int8_t *board, bg_scan_t *r)
{
    bg_pad(board, g->b);
    bg_scan(g->b, r);
    g->own = r->own;
    g->closed = r->closed;
    g->outside = r->outside;
}

static inline void bg_load(bg_gen *g, const int8_t *board)
{
    bg_scan_t r;
    bg_load_scan(g, board, &r);
}

/* Sources (bit set) whose checker may move die d now: RULES 3.3, 5.1-5.2, 6.1-6.4. */
static inline uint32_t bg_movable(const bg_gen *g, int d)
{
    uint32_t m;
    if (g->b[BG_BAR] > 0)  /* RULES 5.1: the bar first; enters on 25-d (5.2) */
        return ((g->closed >> (BG_BAR - d)) & 1u) ? 0u : (1u << BG_BAR);
    /* ordinary moves that land on a point: source above d, target not closed */
    m = g->own & ~(g->closed << d) & ~((2u << d) - 1u);
    if (g->outside == 0 && g->own) {  /* RULES 6.1: all home, bearing off */
        int h;
        if (g->own & (1u << d)) m |= 1u << d;         /* 6.2: exact */
        h = bg_highbit(g->own);
        if (h < d) m |= 1u << h;                      /* 6.4: highest point only */
    }
    return m;
}

/* Moves one checker from s by d; returns 1 when it hit a blot (RULES 3.4). */
static inline int bg_apply(bg_gen *g, int s, int d)
{
    int t = s - d, hit = 0;
    if (--g->b[s] == 0) g->own &= ~(1u << s);
    if (s > 6 && t <= 6) g->outside--;
    if (t >= 1) {
        if (g->b[t] == -1) { g->b[t] = 0; g->b[0]--; hit = 1; }
        g->b[t]++;
        g->own |= 1u << t;
    }
    return hit;
}

static inline void bg_undo(bg_gen *g, int s, int d, int hit)
{
    int t = s - d;
    if (t >= 1) {
        if (--g->b[t] == 0) g->own &= ~(1u << t);
        if (hit) { g->b[t] = -1; g->b[0]++; }
    }
    if (s > 6 && t <= 6) g->outside++;
    g->b[s]++;
    g->own |= 1u << s;
}

/* ------------------------------------------------------------------ */
/* Leaves                                                              */

/*
 * Play classes ("rank"): for doubles, the number of dice used; for
 * non-doubles 3 = both dice, 2 = the higher die alone, 1 = the lower die
 * alone, 0 = no move.  Only the best class reached is kept (RULES 4.1, 4.2).
 * Returns 1 to keep leaves of this rank, 0 to drop them.
 */
static inline int bg_rank(bg_gen *g, int rank, int depth)
{
    if (rank < g->rank) return 0;
    if (rank > g->rank) { g->rank = rank; g->depth = depth; g->out.n = g->start; }
    return 1;
}

/* Whether the board in slot n, of hash h, is new (then it enters the table). */
static inline int bg_unseen(bg_gen *g, const int8_t *row, int64_t n, uint64_t h)
{
    const bg_buf *o = &g->out;
    uint32_t s = (uint32_t)((h * 0x9E3779B97F4A7C15ULL) >> 54) & (BG_HT_SIZE - 1);
    h |= 1;  /* 0 marks an empty slot */
    while (g->keys[s]) {
        if (g->keys[s] == h &&
            memcmp(o->pos + (int64_t)g->idx[s] * BG_NPTS, row, BG_NPTS) == 0)
            return 0;
        s = (s + 1) & (BG_HT_SIZE - 1);
    }
    g->keys[s] = h;
    g->idx[s] = (int32_t)n;
    g->used[g->nused++] = (uint16_t)s;
    return 1;
}

/* The working board as a leaf: a play that can go no further. */
static inline int bg_emit(bg_gen *g, int rank, int depth)
{
    bg_buf *o = &g->out;
    if (!bg_rank(g, rank, depth)) return 0;
    if (o->n >= o->cap && bg_buf_reserve(o, o->n + 1) < 0) return -1;
    memcpy(o->pos + o->n * BG_NPTS, g->b, BG_NPTS);
    if (g->want_moves) memcpy(o->moves + o->n * 8, g->path, 8);
    o->n++;
    return 0;
}

/*
 * The last step of a play: one leaf per source in m, each moving die d.
 * Leaves are written straight into the output (no apply/undo); with
 * `dedupe` a leaf equal to an earlier one of this call is dropped.
 */
static inline int bg_leaves(bg_gen *g, uint32_t m, int d, int depth, int rank, int dedupe)
{
    bg_buf *o = &g->out;
    const int want = g->want_moves;  /* a local: stores to rows may alias g */
    int64_t n;
#ifdef BG_SSE2
    __m128i v0, v1;
#endif
    if (!bg_rank(g, rank, depth + 1)) return 0;
    if (bg_buf_reserve(o, o->n + 16) < 0) return -1;
    n = o->n;
#ifdef BG_SSE2
    v0 = _mm_loadu_si128((const __m128i *)g->b);
    v1 = _mm_loadu_si128((const __m128i *)(g->b + 16));
#endif
    while (m) {
        int s = bg_highbit(m), t = s - d;
        int8_t *row = o->pos + n * BG_NPTS;
        m &= ~(1u << s);
        uint64_t h = dedupe ? g->h + bg_hash_step(g->b, s, d) : 0;
#ifdef BG_SSE2
        /* 32 bytes: the 6 past the row land in the next row or the slack */
        _mm_storeu_si128((__m128i *)row, v0);
        _mm_storeu_si128((__m128i *)(row + 16), v1);
#else
        memcpy(row, g->b, BG_NPTS);
#endif
        row[s]--;
        if (t >= 1) {
            if (row[t] == -1) { row[t] = 1; row[0]--; }   /* RULES 3.4: hit */
            else row[t]++;
        }
        if (dedupe && !bg_unseen(g, row, n, h)) continue;
        if (want) {
            uint8_t *mv = o->moves + n * 8;
            memcpy(mv, g->path, 8);
            mv[2 * depth] = (uint8_t)s;
            mv[2 * depth + 1] = (uint8_t)(t > 0 ? t : 0);
        }
        n++;
    }
    o->n = n;
    return 0;
}

static inline void bg_table_clear(bg_gen *g)
{
    int i;
    for (i = 0; i < g->nused; i++) g->keys[g->used[i]] = 0;
    g->nused = 0;
}

/* ------------------------------------------------------------------ */
/* Enumeration                                                         */

static inline void bg_set_path(bg_gen *g, int depth, int s, int d)
{
    if (depth >= 4) return;  /* never: a turn has at most four steps */
    g->path[2 * depth] = (uint8_t)s;
    g->path[2 * depth + 1] = (uint8_t)(s > d ? s - d : 0);
}

/* Doubles: up to ndice steps of d, sources non-increasing. */
static int bg_dfs_double(bg_gen *g, int d, int depth, int maxsrc, int ndice)
{
    uint32_t m;
    if (depth == ndice) return bg_emit(g, depth, depth);
    m = bg_movable(g, d) & ((2u << maxsrc) - 1u);
    if (!m) return bg_emit(g, depth, depth);
    if (depth + 1 == ndice) return bg_leaves(g, m, d, depth, ndice, 0);
    while (m) {
        int s = bg_highbit(m), hit, r;
        m &= ~(1u << s);
        hit = bg_apply(g, s, d);
        if (g->want_moves) bg_set_path(g, depth, s, d);
        r = bg_dfs_double(g, d, depth + 1, s, ndice);
        bg_undo(g, s, d, hit);
        if (r < 0) return -1;
    }
    return 0;
}

/*
 * Non-doubles: one die order, da then db.  `first_is_high` picks the class
 * of a play that uses da alone.  Leaves whose second source is in `skip` are
 * dropped: in the low-die-first pass, skip is the set of sources that could
 * move the high die at the start, and for those the same two steps in the
 * other order are legal too (the low step only opens or keeps open what
 * the high step needs: same target points, bar first, bearing off only
 * easier), so the high-die-first pass has already produced the position.
 */
static int bg_dfs_pair(bg_gen *g, int da, int db, int first_is_high, uint32_t skip)
{
    uint32_t m1 = bg_movable(g, da);
    while (m1) {
        int s1 = bg_highbit(m1), h1, r;
        uint32_t m2;
        uint64_t hash0 = g->h;
        m1 &= ~(1u << s1);
        g->h += bg_hash_step(g->b, s1, da);
        h1 = bg_apply(g, s1, da);
        if (g->want_moves) bg_set_path(g, 0, s1, da);
        m2 = bg_movable(g, db);
        if (!m2) r = bg_emit(g, first_is_high ? 2 : 1, 1);
        else r = bg_leaves(g, m2 & ~skip, db, 1, 3, 1);
        bg_undo(g, s1, da, h1);
        g->h = hash0;
        if (r < 0) return -1;
    }
    return 0;
}

/*
 * Appends the legal plays of (d1, d2) from `board` to g->out (RULES 3-6).
 * The board must be valid and both sides must still have checkers.
 * Returns the number of plays (>= 1), or -1 when memory ran out.
 * g->depth tells how many dice each play uses.
 */
static inline int64_t bg_generate_loaded(bg_gen *g, int d1, int d2);

static inline int64_t bg_generate(bg_gen *g, const int8_t *board, int d1, int d2)
{
    bg_load(g, board);
    return bg_generate_loaded(g, d1, d2);
}

/*
 * One row of a batch: validates the board (a BG_E_* code, or BG_E_GAME_OVER
 * when a side has no checkers) with the same scan that loads it, then
 * appends its plays.  Returns the number of plays, -1 when memory ran out,
 * or -(100 + code) for a bad row.
 */
static inline int64_t bg_generate_row(bg_gen *g, const int8_t *board, int d1, int d2)
{
    bg_scan_t r;
    int code;
    bg_load_scan(g, board, &r);
    code = bg_check(&r, g->b);
    if (code == BG_OK && bg_side_flags(&r) != BG_BOTH_PLAYING) code = BG_E_GAME_OVER;
    if (code == BG_OK && (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)) code = BG_E_DICE;
    if (code != BG_OK) return -(100 + code);
    return bg_generate_loaded(g, d1, d2);
}

static inline int64_t bg_generate_loaded(bg_gen *g, int d1, int d2)
{
    int r;
    g->start = g->out.n;
    g->rank = -1;
    g->depth = 0;
    memset(g->path, 0, sizeof g->path);
    if (d1 == d2) {
        r = bg_dfs_double(g, d1, 0, BG_BAR, 4);          /* RULES 3.2 */
    } else {
        int hi = d1 > d2 ? d1 : d2, lo = d1 > d2 ? d2 : d1;
        uint32_t high_sources = bg_movable(g, hi);
        g->h = 0;  /* leaves of one call differ only by their steps' deltas */
        r = bg_dfs_pair(g, hi, lo, 1, 0);
        if (r == 0) r = bg_dfs_pair(g, lo, hi, 0, high_sources);
        if (r == 0 && g->rank < 0) r = bg_emit(g, 0, 0);  /* RULES 4.4 */
    }
    bg_table_clear(g);
    if (r < 0) { g->out.n = g->start; return -1; }
    return g->out.n - g->start;
}

/*
 * Appends the positions reachable from `board` by exactly k steps of die d
 * (any checkers, in any order), without the maximal-dice rule: the building
 * block of move-by-move play (RULES 4.3).  Returns their number (may be 0).
 */
static inline int64_t bg_reach(bg_gen *g, const int8_t *board, int d, int k)
{
    int r;
    bg_load(g, board);
    g->start = g->out.n;
    g->rank = -1;
    g->depth = 0;
    r = bg_dfs_double(g, d, 0, BG_BAR, k);
    if (r < 0) { g->out.n = g->start; return -1; }
    if (g->rank != k) g->out.n = g->start;
    return g->out.n - g->start;
}

/*
 * One checker step from `src` (25 = bar) with die d: writes the new board to
 * `out` and returns 0, or returns -1 when the step is not legal by itself
 * (RULES 3.3, 5.1, 6.1-6.4).  Whether the whole turn stays legal is the
 * caller's business.
 */
static inline int bg_step(const int8_t *board, int src, int d, int8_t *out)
{
    bg_gen g;
    if (src < 1 || src > BG_BAR || d < 1 || d > 6) return -1;
    bg_load(&g, board);
    if (g.b[src] <= 0) return -1;
    if (!((bg_movable(&g, d) >> src) & 1u)) return -1;
    bg_apply(&g, src, d);
    memcpy(out, g.b, BG_NPTS);
    return 0;
}

/* ------------------------------------------------------------------ */
/* perft                                                               */

/* The leaves `depth` plies below `board`, -1 when memory ran out, or
 * BG_E_CANCELLED (checked once a node: a node costs microseconds). */
static int64_t bg_perft_rec(bg_gen *g, const int8_t *board, int depth, int rolls36,
                            bg_cancel *cancel)
{
    int64_t total = 0;
    int d1, d2, loaded = 1;
    bg_scan_t r;
    if (depth == 0) return 1;
    /* one scan for all 21 rolls: generating leaves g's board as it was */
    bg_load_scan(g, board, &r);
    if (bg_side_flags(&r) != BG_BOTH_PLAYING) return 1;
    if (bg_cancelled(cancel)) return BG_E_CANCELLED;
    for (d1 = 1; d1 <= 6; d1++) {
        for (d2 = 1; d2 <= d1; d2++) {
            int64_t mult = (rolls36 && d1 != d2) ? 2 : 1;
            int64_t start = g->out.n, n, i;
            if (!loaded) bg_load(g, board);   /* the plies below used g */
            loaded = 1;
            n = bg_generate_loaded(g, d1, d2);
            if (n < 0) return -1;
            if (depth == 1) {
                total += mult * n;
            } else {
                for (i = 0; i < n; i++) {
                    int8_t next[32];
                    int64_t sub;
                    bg_swap32(g->out.pos + (start + i) * BG_NPTS, next);
                    sub = bg_perft_rec(g, next, depth - 1, rolls36, cancel);
                    loaded = 0;
                    if (sub < 0) return sub;
                    total += mult * sub;
                }
            }
            g->out.n = start;
        }
    }
    return total;
}

#endif /* BGCORE_MOVEGEN_H */
