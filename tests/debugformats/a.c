#include "shared.h"
struct only_a { char a; long b; struct shared_point p; };
struct only_a oa; struct shared_list sla; shared_anon_t sat; union shared_u su;
struct shared_nested sna;
int fb(void);
int fc(void);
int main(void) { return oa.a + sla.s + (int)sat.c + su.i + sna.tail + fb() + fc(); }
