import { Badge, createTheme, type CSSVariablesResolver } from '@mantine/core';
import './theme.css';

/**
 * Mantine's dimmed text is below the 4.5:1 axe asks of body text in both schemes (gray 6 on
 * white is 3.3:1; dark 2 on dark 7 is 4.0:1): gray 7 and dark 1 read as secondary and pass.
 * (A resolver's variables come after Mantine's own, so these win.)
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // The primary colour's light variant (a badge's text on its tint) is 4.4:1 at shade 8.
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

/**
 * Contrast in both schemes. A filled badge (the connection state, "running") picks black or white text by its ground's
 * luminance; 0.179 is where the two contrast equally, so the better one is always taken (white on
 * Mantine's green 6 is 2.4:1, black 8.6:1).
 */
export const theme = createTheme({
  luminanceThreshold: 0.179,
  // Shade 6, Mantine's light default, is 3.5:1 on white as text (blue) and under white text;
  // shade 8 passes 4.5:1 for the text, outline and light variants, as it does in the dark scheme.
  primaryShade: { light: 8, dark: 8 },
  components: { Badge: Badge.extend({ defaultProps: { autoContrast: true } }) },
});

/** Where the reader's choice is kept (Mantine's local-storage manager); absent follows the system. index.html's inline script reads the same key before the bundle paints. */
export const COLOR_SCHEME_KEY = 'strand-color-scheme';
