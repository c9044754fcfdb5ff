# A web service with two instances behind Consul service discovery.
job "web" {
  datacenters = ["dc1"]
  type        = "service"

  update {
    max_parallel     = 1
    min_healthy_time = "10s"
    healthy_deadline = "3m"
    auto_revert      = true
  }

  group "frontend" {
    count = 2

    network {
      port "http" {
        to = 8080
      }
    }

    service {
      name = "web-frontend"
      port = "http"
      tags = ["urlprefix-/"]

      check {
        type     = "http"
        path     = "/health"
        interval = "10s"
        timeout  = "2s"
      }
    }

    restart {
      attempts = 3
      interval = "5m"
      delay    = "15s"
      mode     = "delay"
    }

    task "server" {
      driver = "docker"

      config {
        image = "nginx:1.27-alpine"
        ports = ["http"]
        volumes = [
          "local/default.conf:/etc/nginx/conf.d/default.conf",
        ]
      }

      template {
        destination = "local/default.conf"
        data        = <<EOT
server {
  listen 8080;
  location / {
    root /usr/share/nginx/html;
  }
  location /health {
    return 200 'ok';
  }
}
EOT
      }

      env {
        INSTANCE_NAME = "web-${NOMAD_ALLOC_INDEX}"
      }

      resources {
        cpu    = 200
        memory = 128
      }
    }
  }
}
