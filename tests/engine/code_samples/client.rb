# frozen_string_literal: true

# The HTTP client that talks to the registry.
module Registry
  # A client with retries.
  class Client
    # Fetch a package's metadata by its name.
    def fetch(name)
      get("/packages/#{name}")
    end

    def self.default
      new
    end
  end
end
