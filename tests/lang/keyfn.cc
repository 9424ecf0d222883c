#include "keyfn.h"
UsesKey g_uses;
HasKey g_has;
Plain g_plain;
