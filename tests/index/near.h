/* One line, two definitions: near.c's NEAR_FOOX a typedef's anonymous struct, near2.c's a named one. */
NEAR_FOOX;
