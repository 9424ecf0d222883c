#include "keyfn.h"
Key::~Key() {}
int main()
{
	return 0;
}
