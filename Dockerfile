# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev dependencies.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
COPY tools ./tools
COPY web ./web
RUN npm run build
# Each tool's agent guide and examples, without its code (the runtime stage takes those).
RUN mkdir -p /app/tool-docs && cd tools && find . \( -name SKILL.md -o -path './*/examples/*.json' \) \
  -exec cp --parents {} /app/tool-docs/ \;

# Runtime stage: production dependencies, compiled code and the agent docs only.
FROM node:24-slim AS runtime
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
# recheck's optional Java and native back ends (~52 MB) are left out: the regex tester runs
# its pure-JavaScript one (tools/regex-tester/SKILL.md).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force \
  && rm -rf node_modules/recheck-jar node_modules/recheck-linux-* node_modules/recheck-darwin-* node_modules/recheck-windows-*
COPY --from=build /app/dist ./dist
# Documents are not compiled: the hub reads skills/common/ and each tool's SKILL.md and
# examples/ from the source tree's layout (src/paths.ts): tools/ holds only those here.
COPY skills ./skills
COPY --from=build /app/tool-docs ./tools
# The example pipelines (docs/api.md#pipelines), served where PIPELINES_FILE names them.
COPY pipelines ./pipelines
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Run node directly (not npm) so SIGTERM reaches the server and it drains in-flight runs.
# With HUB_PROCESSES > 1 that node is the primary: it passes SIGTERM and SIGHUP to every API
# process and exits once all have drained (docs/operations.md#every-core-of-the-box).
CMD ["node", "dist/src/server.js"]
