// Runs before first paint so a dark-theme user never sees a light flash.
// Same rule as src/app/theme.ts: the stored choice wins, else the system preference.
(() => {
  let theme = null;
  try {
    theme = window.localStorage.getItem('carrier-desk.theme');
  } catch {
    // Storage blocked: fall back to the system preference.
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
})();
