// A base whose key function (the first non-inline virtual one) is defined
// in another unit: this object holds only its declaration.
struct Key {
	virtual ~Key();
	long a;
};
struct UsesKey : Key {
	int c;
};
struct Plain {
	long x;
	int y;
};
UsesKey g_uses;
Plain g_plain;
