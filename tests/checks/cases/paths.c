/* Fast-path domains (rules.md, Domains): tx/rx words compare as path sets. */
struct path_line {
    const void *ops;
    unsigned long rx_head;
    unsigned long tx_head;
    unsigned long both;
};

/*
 * adjacent-lines: each hot member on its own line; lines 0-1 and 2-3 are
 * the two aligned pairs.
 */
struct pair_lines {
    const void *ops;            /* line 0: read-mostly */
    long pad0[7];
    unsigned long hits;         /* line 1: write-hot, same pair as ops */
    long pad1[7];
    unsigned long lock;         /* line 2: write-hot */
    long pad2[7];
    const void *cfg;            /* line 3: read-mostly, same pair as lock */
    long pad3[7];
    const void *table;          /* line 4: read-mostly, pair 4-5 */
    long pad4[7];
    const void *map;            /* line 5: read-mostly */
} __attribute__((aligned(128)));

struct path_line pl;
struct pair_lines pr;

/*
 * Hot sets (a rules 'group'): ops, hits and lock are read together but
 * spread over lines 0-2 of pair_lines; table and map sit on lines 4 and 5
 * and need one. hot_pair's two members fit their one line.
 */
struct hot_pair {
    long a;
    long b;
};
struct hot_pair hp;

/*
 * --in: inner alone keeps ops (line 0) and count (line 1) apart; embedded
 * at +16 in outer, both land on outer's line 1.
 */
struct inner {
    long pad[6];                /* inner 0-47 */
    const void *ops;            /* inner 48: line 0 */
    long pad2[2];               /* inner 56-71 */
    long count;                 /* inner 72: line 1 */
};
struct outer {
    char head[16];
    struct inner in;            /* outer 16: ops at 64, count at 88, both line 1 */
    struct inner *ptr;
};
struct outer ou;

/* array-neighbours: per-writer slots four to a line, and one slot a line. */
struct slot { long hits; const void *owner; };
struct line_slot { long hits; } __attribute__((aligned(64)));
struct slots {
    struct slot packed[4];          /* 16-byte elements: 4 per line */
    struct line_slot apart[2];      /* 64-byte elements: one per line */
    char name[16];                  /* a byte buffer, not per-writer slots */
};
struct slots sl;
