// Tailwind 4 reads its theme from CSS (src/app/styles.css, `@theme`); this file keeps the content globs and
// dark-mode strategy in one visible place for editors and for the next engineer.
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  darkMode: 'class',
};
