// C++ class layouts for tests/lang/run_lang.py: each named in NAMES there,
// checked against the compiler's own offsetof, sizeof and base offsets.
namespace geo {
struct Base {
	long id;
	int flags;
};
struct Empty {};
struct Tag {
	char kind;
};
// Multiple inheritance, a static member, an empty [[no_unique_address]]
// member sharing bytes, a hole after the second base.
struct Derived : Base, Tag {
	static int instances;
	int count;
	[[no_unique_address]] Empty marker;
	char last;
};
int Derived::instances;
// An empty base takes no room (EBO).
struct Counted : Empty {
	int n;
	short m;
};
struct Outer {
	struct Inner {
		short s;
		double d;
	} inner;
	int k;
	static const int limit = 4;
};
template <typename T, typename U> struct Pair {
	T first;
	U second;
};
namespace deep {
struct Leaf {
	char c;
	long l;
	char z;
};
}
// Three levels of single inheritance, with holes to move.
struct Level1 : deep::Leaf {
	char a;
};
struct Level2 : Level1 {
	int b;
	char c2;
	long d;
	char e;
};
}
class Shape {
public:
	virtual ~Shape();
	int sides;
	double area;
};
Shape::~Shape() {}
struct Square : Shape {
	char filled;
	int size;
};
struct Virtual : virtual geo::Base {
	int own;
};
// [[no_unique_address]] member at the very end.
struct Tail {
	int x;
	[[no_unique_address]] geo::Empty end;
};

geo::Derived g_derived;
geo::Counted g_counted;
geo::Outer g_outer;
geo::Pair<int, char> g_pair;
geo::Pair<geo::Base, short> g_pair2;
geo::Level2 g_level2;
Square g_square;
Virtual g_virtual;
Tail g_tail;

#ifdef WITH_MAIN
int main()
{
	return 0;
}
#endif
