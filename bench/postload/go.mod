module iot-pipeline/bench/postload

go 1.22
