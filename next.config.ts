import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // pg and the Prisma adapter are server-only Node modules: keep them out of the bundler.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  typedRoutes: false,
};

export default nextConfig;
