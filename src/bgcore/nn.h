/*
 * nn.h -- the neural evaluator: input encoding and multilayer perceptrons in
 * float32, plain C the compiler vectorises.  No Python, no globals: weights
 * are read-only during evaluation, so any number of threads may evaluate
 * with the same nets (docs/nn.md describes the encoding).
 *
 * A net maps a board seen by the player on roll, BEFORE rolling, to five
 * probabilities in gnubg's cumulative convention: win, win gammon (includes
 * backgammons), win backgammon, lose gammon, lose backgammon.  Two nets:
 * contact and race (no contact: bg_nn_is_race).
 *
 * Layout.  First-layer weights are stored input-major (w1[i * hpad + j]):
 * the H weights of one input are contiguous, so the first layer is a sum of
 * the columns of the few nonzero inputs (about 40 of 204), each a vector
 * add.  hpad is the hidden size rounded up to 8 (the padding is zero).
 *
 * Move choice (bg_nn_choose) is incremental: the candidates of a roll differ
 * from the position before it in a few points, so the first-layer sums of
 * that position are computed once and each candidate adds the columns of the
 * inputs it changes (as chess NNUE does).  The sums are float, so they can
 * differ from a full evaluation in the last bits (about 1e-7).
 *
 * Hidden units use the "soft sigmoid" s(x) = 1/2 + x / (2 (1 + |x|)): it
 * vectorises (no exp), and its derivative, (1 - |2s - 1|)^2 / 2, comes from
 * s alone.  A net with a middle layer may use the clipped ReLU min(max(x, 0),
 * 1) in its first layer instead (BG_NN_CRELU: no division, so its integer
 * form in nn/quant.h is two instructions a vector).  Outputs use the
 * logistic function.
 */
#ifndef BGCORE_NN_H
#define BGCORE_NN_H

#include <math.h>
#include "movegen.h"

#define BG_NN_CONTACT 0
#define BG_NN_RACE 1
#define BG_NN_CRASHED 2        /* only in files with three nets */
#define BG_NN_MAXNETS 3
#define BG_NN_SIDE 98          /* inputs per side: 24 points x 4, bar, off */
#define BG_NN_RAW (2 * BG_NN_SIDE)
#define BG_NN_NFEAT 8          /* feature inputs of encoding 1 */
#define BG_NN_NFEAT2 28        /* ... of encoding 2: those 8, then 10 a side (nn.h, docs/nn.md) */
#define BG_NN_NFEAT3 42        /* ... of encoding 3: those 28, then 7 a side (nn/feat3.h) */
#define BG_NN_NFEAT4 52        /* ... of encoding 4: those 42, then 5 race inputs a side (nn/feat4.h) */
#define BG_NN_MAXFEAT BG_NN_NFEAT4
#define BG_NN_NIN (BG_NN_RAW + BG_NN_NFEAT)
#define BG_NN_NIN2 (BG_NN_RAW + BG_NN_NFEAT2)
#define BG_NN_NIN3 (BG_NN_RAW + BG_NN_NFEAT3)
#define BG_NN_NIN4 (BG_NN_RAW + BG_NN_NFEAT4)
#define BG_NN_NOUT 5
#define BG_NN_MAXNZ 192        /* nonzero inputs: 2 x (15 x 4 + 2) + 52 = 176 at most, + slack */
#define BG_NN_MAXH 2048       /* hidden units of a net at most (an ensemble of two 1,024s) */
#define BG_NN_MAXMID 128       /* units of a second hidden layer at most */
#define BG_NN_HBUF (BG_NN_MAXH + BG_NN_MAXMID)   /* activations of both hidden layers */
#define BG_NN_NPTS_DELTA (26 * 8 + 2 + BG_NN_MAXFEAT + 4)   /* inputs a candidate may change, + slack
                                                              (encoding 6: 26 x 2 + 4 + 44 at most) */
#define BG_NN_ENCODING 1       /* the env's "net" observation: encoding 1, the inputs of the fast
                                  nets and the screen (the default nets read 4, which extends it) */
#define BG_NN_ENCODING_MAX 6   /* encodings this core runs: 1 to 6 (5: nn/feat5.h, 6: nn/feat6.h) */
#define BG_NN_SOFT 0           /* the soft sigmoid below */
#define BG_NN_CRELU 1          /* the clipped ReLU min(max(x, 0), 1) */
#define BG_NN_CRASHED_MAX 6    /* a side with this many checkers in play or fewer is crashed */

/* Feature inputs (after the 196 raw ones). */
#define BG_F_PIPS 0            /* pips / 100, on roll then opponent */
#define BG_F_SHOTS 2           /* rolls of 36 that hit a blot / 36 */
#define BG_F_PRIME 4           /* longest run of made points / 6 */
#define BG_F_ESCAPE 6          /* rolls of 36 that take the rearmost checker past the
                                  blockade in front of it / 36 */

typedef struct {
    int nin, nhid, hpad;
    int enc;           /* input encoding: 1 to 4 (nin = BG_NN_NIN, BG_NN_NIN2, BG_NN_NIN3 or BG_NN_NIN4) */
    const float *w1;   /* nin x hpad, input-major */
    const float *b1;   /* hpad */
    const float *w2;   /* 5 x opad, output-major: the outputs' weights on the last
                          hidden layer (opad: hpad, or mpad with a middle layer) */
    const float *b2;   /* 5 */
    int nmid, mpad;    /* a second ("middle") hidden layer of nmid units padded to
                          mpad (0, 0: none); it costs no first-layer work, so the
                          incremental move choice keeps its speed */
    const float *wm;   /* mpad x hpad, unit-major: the middle units' weights on the first layer */
    const float *bm;   /* mpad */
    const struct bg_qnet_s *q;   /* NULL, or the same net quantised (nn/quant.h): it answers */
    int act;           /* the first layer's activation: BG_NN_SOFT, or BG_NN_CRELU (only
                          with a middle layer, whose activation stays the soft sigmoid) */
} bg_mlp;

typedef struct {
    bg_mlp net[BG_NN_MAXNETS];  /* BG_NN_CONTACT, BG_NN_RACE, BG_NN_CRASHED */
    int nnets;                  /* 2 (crashed positions go to the contact net) or 3 */
} bg_nn;

/* The parts, in order (Stockfish's src/nnue/ is the model: one file a layer). */
#include "nn/features.h"
#include "nn/accumulate.h"
#include "nn/head.h"
#include "nn/quant.h"
#include "nn/choose.h"

#endif /* BGCORE_NN_H */
