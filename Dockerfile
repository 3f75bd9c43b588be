# Portico: one image for every role (`start`, `management`, `gateway`, `migrate`).
#   docker build -t portico .
#   docker run -p 8082:8082 -p 8083:8083 -p 8084:8084 portico            # everything, SQLite in /data
#   docker run -e DATABASE_URL=postgres://... portico gateway             # one gateway of many
# The Kubernetes manifests under deploy/kubernetes run it as separate management and gateway Deployments.

# Build: every dependency, then the TypeScript packages and the web app.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/model/package.json packages/model/
COPY packages/outbound/package.json packages/outbound/
COPY packages/storage/package.json packages/storage/
COPY packages/management/package.json packages/management/
COPY packages/gateway/package.json packages/gateway/
COPY packages/web/package.json packages/web/
COPY packages/cli/package.json packages/cli/
RUN npm ci
COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
RUN npm run build

# Production dependencies only: this layer is rebuilt only when a package.json or the lock file changes.
FROM node:20-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/model/package.json packages/model/
COPY packages/outbound/package.json packages/outbound/
COPY packages/storage/package.json packages/storage/
COPY packages/management/package.json packages/management/
COPY packages/gateway/package.json packages/gateway/
COPY packages/web/package.json packages/web/
COPY packages/cli/package.json packages/cli/
RUN npm ci --omit=dev && npm cache clean --force

# Runtime: the compiled packages on the production dependencies, run as the unprivileged `node` user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORTICO_DATA_DIR=/data
WORKDIR /app
COPY --from=dependencies /app ./
COPY --from=build /app/packages/model/dist packages/model/dist
COPY --from=build /app/packages/outbound/dist packages/outbound/dist
COPY --from=build /app/packages/storage/dist packages/storage/dist
COPY --from=build /app/packages/management/dist packages/management/dist
COPY --from=build /app/packages/gateway/dist packages/gateway/dist
COPY --from=build /app/packages/web/dist packages/web/dist
COPY --from=build /app/packages/cli/dist packages/cli/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
# gateway, management API, web app, gateway status (/live, /ready)
EXPOSE 8082 8083 8084 18082
ENTRYPOINT ["node", "packages/cli/dist/bin.js"]
CMD ["start"]
