/* One header, reached by two relative paths: "shared.h" from lib/, "../lib/shared.h" from src/. */
struct shared {
	long a;
	int b;
	char c;
};
