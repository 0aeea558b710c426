"""Spark topologies on 127.0.0.1 the tests start themselves: a Spark Connect server (reached
through ``sc://``) and a standalone cluster (a master and workers, reached through ``spark://``),
both from the scripts the pyspark package ships. Each is a child process of the test session,
bound to the loopback address, and stopped (its processes killed by id) when the session ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
CONNECT_SERVER = "org.apache.spark.sql.connect.service.SparkConnectServer"


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Spark exited ({process.returncode}): {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1):
            return
        time.sleep(0.5)
    raise RuntimeError(f"nothing listens on {HOST}:{port} after {timeout} s: {log}")


@dataclass
class Processes:
    """Child processes of the tests (each in its own process group), stopped together."""

    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(
        self, command: Sequence[str], log: Path, env: dict[str, str]
    ) -> subprocess.Popen[bytes]:
        with log.open("wb") as out:
            process = subprocess.Popen(
                list(command), stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        self.started.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.started):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def _env(folder: Path) -> dict[str, str]:
    return {
        **os.environ,
        "SPARK_HOME": str(spark_home()),
        "SPARK_LOCAL_IP": HOST,
        "SPARK_LOG_DIR": str(folder),
        "SPARK_PID_DIR": str(folder),
        "SPARK_WORKER_DIR": str(folder / "work"),
        "SPARK_NO_DAEMONIZE": "1",
    }


def local_conf(folder: Path) -> list[str]:
    """``--conf`` options of a small application on this machine: its warehouse and metastore in
    ``folder``, no web UI, few shuffle partitions, UTC."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "spark.sql.warehouse.dir": str(folder / "warehouse"),
        "spark.driver.extraJavaOptions": f"-Dderby.system.home={folder}",
        "spark.ui.enabled": "false",
        "spark.log.level": "ERROR",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.codegen.wholeStage": "false",
        "spark.driver.host": HOST,
        "spark.driver.bindAddress": HOST,
    }
    return [arg for key, value in settings.items() for arg in ("--conf", f"{key}={value}")]


@contextlib.contextmanager
def connect_server(folder: Path, master: str = "local[2]", timeout: float = 300) -> Iterator[str]:
    """A Spark Connect server on 127.0.0.1 (its own driver on ``master``); yields its
    ``sc://`` address and stops it at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    processes = Processes()
    command = [
        str(spark_home() / "bin" / "spark-submit"),
        "--class",
        CONNECT_SERVER,
        "--name",
        "anonsql tests: Spark Connect",
        "--master",
        master,
        "--driver-memory",
        "2g",
        "--conf",
        f"spark.connect.grpc.binding.address={HOST}",
        "--conf",
        f"spark.connect.grpc.binding.port={port}",
        *local_conf(folder),
    ]
    log = folder / "connect-server.log"
    try:
        process = processes.start(command, log, _env(folder))
        wait_for_port(port, process, log, timeout)
        yield f"sc://{HOST}:{port}"
    finally:
        processes.stop()


@dataclass(frozen=True)
class Cluster:
    """A standalone cluster on 127.0.0.1: its master URL and its folder (logs, work dirs)."""

    master: str
    folder: Path


@contextlib.contextmanager
def standalone_cluster(
    folder: Path, workers: int = 2, cores: int = 1, memory: str = "1g", timeout: float = 300
) -> Iterator[Cluster]:
    """A standalone master and ``workers`` workers on 127.0.0.1 (``spark-class``); yields the
    master URL and stops every process at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    port, web = free_port(), free_port()
    processes = Processes()
    spark_class = str(spark_home() / "bin" / "spark-class")
    env = _env(folder)
    try:
        master = processes.start(
            [
                spark_class,
                "org.apache.spark.deploy.master.Master",
                "--host",
                HOST,
                "--port",
                str(port),
                "--webui-port",
                str(web),
            ],
            folder / "master.log",
            env,
        )
        wait_for_port(port, master, folder / "master.log", timeout)
        url = f"spark://{HOST}:{port}"
        for n in range(workers):
            processes.start(
                [
                    spark_class,
                    "org.apache.spark.deploy.worker.Worker",
                    url,
                    "--host",
                    HOST,
                    "--cores",
                    str(cores),
                    "--memory",
                    memory,
                    "--webui-port",
                    str(free_port()),
                    "--work-dir",
                    str(folder / f"worker-{n}"),
                ],
                folder / f"worker-{n}.log",
                env,
            )
        _wait_for_workers(folder, workers, timeout)
        yield Cluster(url, folder)
    finally:
        processes.stop()


def _wait_for_workers(folder: Path, workers: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = (folder / "master.log").read_text(errors="replace")
        if text.count("Registering worker") >= workers:
            return
        time.sleep(0.5)
    raise RuntimeError(f"{workers} workers did not register with the master: {folder}")
