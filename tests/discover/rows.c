/*
 * --list rows for names that are not laid out (tests/discover/run_discover.py):
 * built twice, with and without WIDE, into one executable. struct twice has
 * two distinct definitions; struct huge_one is 2 GiB of one array member,
 * listed and laid out (its map costs per member).
 */
#ifdef WIDE
struct twice {
	long a, b;
};
struct twice twice_wide;
#else
struct twice {
	int a;
};
struct twice twice_narrow;
struct huge_one {
	char slots[1UL << 31];
};
struct huge_one *huge_p;
struct plain_row {
	int x;
};
struct plain_row plain_v;
int main(void)
{
	return 0;
}
#endif
