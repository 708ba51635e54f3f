module iot-pipeline/bench/nullserver

go 1.22
