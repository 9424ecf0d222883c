/* 72 bytes, 8-aligned: where it lands depends on where it starts. */
struct stat72 {
    long s0;
    long s1;
    long s2;
    long s3;
    const void *ops;            /* bytes 32-39: read-mostly */
    long s5;
    long s6;
    long s7;
    long hits;                  /* bytes 64-71: write-hot */
};

_Static_assert(sizeof(struct stat72) == 72 && _Alignof(struct stat72) == 8, "72/8");

struct stat72 st;

/* A 16-byte write-hot member that straddles a line in one start offset. */
struct seq16 {
    long lo;
    long hi;
};

struct wide72 {
    long w0;
    struct seq16 seq;           /* bytes 8-23 */
    long w3[6];
};

_Static_assert(sizeof(struct wide72) == 72 && _Alignof(struct wide72) == 8, "72/8");

struct wide72 wd;

/* Mixed at the line-aligned start, but not in every start offset. */
struct adj72 {
    const void *ops;            /* bytes 0-7: read-mostly */
    long hits;                  /* bytes 8-15: write-hot */
    char pad[56];
};

_Static_assert(sizeof(struct adj72) == 72 && _Alignof(struct adj72) == 8, "72/8");

struct adj72 aj;
