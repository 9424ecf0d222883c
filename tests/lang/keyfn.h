// Classes whose base or member is defined only where its key function (the
// first non-inline virtual one) is: keyfn_key.cc. keyfn.cc alone holds
// only Key's declaration.
struct Key {
	virtual ~Key();
	long a;
	int b;
};
struct UsesKey : Key {
	int c;
};
struct HasKey {
	Key k;
	char d;
};
struct Plain {
	long x;
	int y;
};
