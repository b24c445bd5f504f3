# health-sandbox as a container image: the standalone binary (`npm run build:binary`, Linux x64)
# on a distroless base that has the C/C++ runtime Node needs (glibc, libstdc++) and nothing else.
#
#   npm ci && npm run build:binary && docker build -t health-sandbox .
#   docker run --rm -p 4250:4250 -e HEALTH_SANDBOX_ADMIN_TOKEN=secret health-sandbox
#
# Every flag is also an environment variable (`health-sandbox --help`). It listens on all
# interfaces, so the control plane (/_sandbox/*) needs the admin token: set
# HEALTH_SANDBOX_ADMIN_TOKEN (else a random one is printed at start). docs/other-languages.md
# has the CI `services:` recipes. test/binary/dockerfile.test.ts checks that this file copies
# only what the build writes and that its settings are flags the binary accepts.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --chmod=755 dist-bin/health-sandbox /usr/local/bin/health-sandbox
ENV HEALTH_SANDBOX_HOST=0.0.0.0 \
    HEALTH_SANDBOX_PORT=4250 \
    HEALTH_SANDBOX_CLOCK=manual \
    HEALTH_SANDBOX_FEED=off \
    HEALTH_SANDBOX_LOG=json
EXPOSE 4250
USER nonroot
ENTRYPOINT ["/usr/local/bin/health-sandbox"]
