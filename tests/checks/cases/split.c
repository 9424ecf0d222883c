/* split-hot: members straddling the boundary at offset 64. */
struct __attribute__((packed)) split_counter {
    char pad[60];
    long counter;               /* bytes 60-67 */
};

struct ops_triple {
    const void *open;
    const void *read;
    const void *write;
};

struct split_ops {
    char pad[48];
    struct ops_triple ops;      /* bytes 48-71 */
};

/*
 * Bitfields in a packed struct: the storage unit of an unsigned int that
 * starts in byte 62 would run to byte 65, but only the bits count.
 */
struct __attribute__((packed)) split_bits_inside {
    char pad[62];
    unsigned int state : 4;     /* bits 496-499: byte 62 */
    unsigned int seq : 12;      /* bits 500-511: bytes 62-63 */
    unsigned int tail : 16;     /* bits 512-527: line 1 */
};

struct __attribute__((packed)) split_bits_across {
    char pad[62];
    unsigned int state : 4;     /* bits 496-499 */
    unsigned int seq : 16;      /* bits 500-515: crosses bit 512 */
    unsigned int tail : 12;
};

_Static_assert(__builtin_offsetof(struct split_counter, counter) == 60, "counter at 60");
_Static_assert(__builtin_offsetof(struct split_ops, ops) == 48, "ops at 48");
_Static_assert(sizeof(struct split_bits_inside) == 66, "66 bytes");

struct split_counter sc;
struct split_ops so;
struct split_bits_inside sbi;
struct split_bits_across sba;
