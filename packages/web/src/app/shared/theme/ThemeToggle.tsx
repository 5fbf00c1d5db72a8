import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

/**
 * Switches between the light and the dark theme. Until the reader picks one the page follows
 * `prefers-color-scheme`; the pick is kept in local storage (`COLOR_SCHEME_KEY`), so it outlives
 * a reload.
 */
export function ThemeToggle(): React.JSX.Element {
  const { setColorScheme } = useMantineColorScheme();
  const shown = useComputedColorScheme('light');
  const next = shown === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="md"
      onClick={() => setColorScheme(next)}
      aria-label={`Use the ${next} theme`}
      data-testid="theme-toggle"
      data-scheme={shown}
    >
      <span aria-hidden="true">{shown === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}
