FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
COPY fhir-profiles ./fhir-profiles
COPY capability ./capability
COPY cql ./cql
COPY scripts ./scripts
COPY pages ./pages
COPY fixtures/README.md fixtures/corpus.json ./fixtures/
RUN npm ci --no-audit --no-fund && npm prune --omit=dev
ENV PORT=8080 HOST=0.0.0.0
EXPOSE 8080
USER node
CMD ["node", "dist/src/main.js"]
