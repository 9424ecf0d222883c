// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linked once per layer with that layer's whole library and only the layers
 * it declares (src/meson.build): a call into a higher layer is then an
 * undefined reference at build time.
 */
int main(void)
{
	return 0;
}
