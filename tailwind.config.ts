import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: {
    // seed §9 breakpoints: xs 0, sm 600, md 900, lg 1200, xl 1536
    screens: { sm: "600px", md: "900px", lg: "1200px", xl: "1536px" },
    extend: {
      colors: {
        brand: {
          50: "#eef6ff",
          100: "#d9eaff",
          500: "#2f6fde",
          600: "#1f57c0",
          700: "#1b469b",
          900: "#14284f",
        },
      },
    },
  },
  plugins: [],
} satisfies Config;
