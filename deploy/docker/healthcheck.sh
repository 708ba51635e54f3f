#!/bin/bash
# Container healthcheck: exit 0 when GET http://127.0.0.1:PORT/PATH answers 200 (PATH defaults to the readiness
# probe). Plain bash with /dev/tcp: the JRE base image promises no curl or wget, and a JVM per probe would cost
# a second of CPU every interval.
set -u
port=${1:?usage: healthcheck PORT [PATH]}
path=${2:-/actuator/health/readiness}
exec 3<>"/dev/tcp/127.0.0.1/${port}" || exit 1
printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$path" "$port" >&3
read -r -t 5 _ status _ <&3 || exit 1
[ "$status" = 200 ]
