# Alien Frontiers on Discord: the bot in a small image, run as a non-root user.
#   docker build -t alien-frontiers .
#   docker run -d --name af --restart unless-stopped --env-file .env -v af-data:/data alien-frontiers
#   docker logs af                                   # the invite link, once ready
#   mkdir -p demo-out && docker run --rm --user "$(id -u):$(id -g)" \
#       -v "$PWD/demo-out:/demo" alien-frontiers --demo /demo   # files owned by you
#   docker exec af python -m bot backup /data/backups/  # see docs/hosting.md, "Backups"
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, read from pyproject.toml (one list) at the versions of the lock (the
# ones the tests ran with), so this layer is reused while neither changes. The wheels
# (Pillow included) need no compiler.
COPY pyproject.toml requirements.lock ./
RUN python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; print('\n'.join(deps))" > /tmp/requirements.txt \
    && pip install --no-compile -c requirements.lock -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY engine/ engine/
COPY bot/ bot/
COPY assets/ assets/

# /app/data is /data: the default DATABASE_URL (sqlite:///data/alienfrontiers.db, relative,
# as .env.example has it for `--env-file .env`) and the absolute one name the same file, on
# the volume, where the bot's user may write.
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin af \
    && mkdir -p /data \
    && chown af:af /data \
    && ln -s /data /app/data

USER af

# The database lives on a volume so games survive a new container.
ENV DATABASE_URL=sqlite:////data/alienfrontiers.db
VOLUME ["/data"]

ENTRYPOINT ["python", "-m", "bot"]
