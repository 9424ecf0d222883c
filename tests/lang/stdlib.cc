// Everyday C++ for tests/lang/run_lang.py (issue 41): classes holding the
// standard library's containers, whose allocators are empty bases nested in
// empty bases, and [[no_unique_address]] members at any depth; checked by
// the compiler's offsetof/sizeof, as classes.cc is.
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

struct Holder {
	std::string name;
	std::vector<int> ids;
	std::map<int, long> by_id;
	int count;
};
struct Owner {
	std::unique_ptr<int> p;
	int y;
};
struct TupleHolder {
	std::tuple<int *, std::default_delete<int>> t;
	char c;
};
struct NodeHolder {
	std::set<int>::node_type node;
	int z;
};
// Empty bases nested in empty bases: none takes a byte.
struct E1 {};
struct E2 : E1 {};
struct E3 : E2 {};
struct Nested : E3 {
	int a;
};
// A class whose only member is an empty [[no_unique_address]] one is empty,
// at any depth; a union of such too.
struct OnlyEmpty {
	[[no_unique_address]] E1 e;
};
struct OnlyOnlyEmpty {
	[[no_unique_address]] OnlyEmpty o;
};
union EmptyUnion {
	[[no_unique_address]] E1 e;
};
struct Deep : OnlyOnlyEmpty {
	[[no_unique_address]] OnlyEmpty first;
	long v;
	[[no_unique_address]] OnlyOnlyEmpty last;
};
struct WithUnion {
	[[no_unique_address]] EmptyUnion u;
	short s;
};
// A plain (not [[no_unique_address]]) member of such a type keeps its byte.
struct KeepsByte {
	OnlyEmpty keep;
	int after;
};
// Sized by the ABI: std::nullptr_t is a pointer, a pointer to data member
// one word, a pointer to member function two.
struct Target {
	int f();
	int d;
};
struct MemberPointers {
	char c0;
	int Target::*dm;
	char c1;
	int (Target::*fm)();
	char c2;
	std::nullptr_t np;
	char c3;
};

Holder g_holder;
Owner g_owner;
TupleHolder g_tuple;
NodeHolder g_node;
Nested g_nested;
Deep g_deep;
WithUnion g_with_union;
KeepsByte g_keeps;
MemberPointers g_pointers;

#ifdef WITH_MAIN
int main()
{
	return 0;
}
#endif
