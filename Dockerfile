# syntax=docker/dockerfile:1
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Each npm workspace's manifest: the lock file lists them, and `npm ci` refuses a tree without them.
COPY packages/client/package.json ./packages/client/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY packages ./packages
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    SQLITE_PATH=/app/data/voice-assistant.sqlite
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The producer client package (a workspace the service imports; node_modules links to it).
COPY --from=build --chown=node:node /app/packages/client/package.json ./packages/client/
COPY --from=build --chown=node:node /app/packages/client/dist ./packages/client/dist
COPY --chown=node:node package.json ./
# Embedded mode (no DATABASE_URL) keeps its SQLite file here: writable by the non-root user.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# 200 while the API can serve configuration (also with Redis down); the worker image overrides it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The same image runs the API (default), the worker (`node dist/worker.js`) and migrations
# (`npm run migration:run:prod`, with DATABASE_URL set).
CMD ["node", "dist/main.js"]
