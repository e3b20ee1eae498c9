/**
 * ESLint for the dashboard (part of `npm test`): TypeScript's recommended rules, React's hooks rules
 * (rules of hooks, exhaustive dependencies) and Relay's rules (documents that parse, operation and
 * fragment names, typed hooks, fragments spread where they are used).
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import relay from "eslint-plugin-relay";

export default tseslint.config({ ignores: ["dist/**", "src/__generated__/**"] }, js.configs.recommended, ...tseslint.configs.recommended, {
  files: ["src/**/*.{ts,tsx}"],
  plugins: { "react-hooks": reactHooks, relay },
  rules: {
    ...reactHooks.configs.recommended.rules,
    "relay/graphql-syntax": "error",
    "relay/graphql-naming": "error",
    "relay/generated-typescript-types": "error",
    // Off: it counts a field as used only where the same file reads it by name, and the list kit
    // reads fields elsewhere by design (usePagedConnection reads edges and totalCount, VideoCell a
    // video's title fields). TypeScript's generated types keep the reads honest instead.
    "relay/unused-fields": "off",
    "relay/must-colocate-fragment-spreads": "error",
    "relay/hook-required-argument": "error",
    "relay/function-required-argument": "error",
    "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
  },
});
