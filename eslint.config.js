// Lint for static/js: native ES modules run by the browser as they are (no build step).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/", "static/vendor/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      // `django`: the JavaScript catalogue's script (base.html), read only by lib/i18n.js.
      globals: { ...globals.browser, django: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
];
