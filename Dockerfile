# The app image: one process serving the API and the built web app. Each container keeps its own
# SQLite read models in /app/data; the event store and objects live in KurrentDB and S3.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npx -y pnpm@10.34.9 install --frozen-lockfile && npx -y pnpm@10.34.9 --filter @kamai/web build
ENV NODE_ENV=production DATA_DIR=/app/data
EXPOSE 3000
CMD ["node_modules/.bin/tsx", "apps/api/src/main.ts"]
