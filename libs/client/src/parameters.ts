/**
 * The path and query parameters of each GET route, as the OpenAPI document the service serves
 * states them (from the routes' declarations): what the MCP tools publish as their input schemas.
 * Do not edit: `npm run client:generate` writes this file, and a test fails when it no longer
 * matches the served document.
 */
export const GET_PARAMETERS = {
  "/v1/ingest/batches/{batchId}": [
    {
      "name": "batchId",
      "required": true,
      "in": "path",
      "description": "batch_id from the 202 of POST /v1/ingest/records",
      "schema": {
        "type": "string",
        "format": "uuid",
        "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
      },
      "example": "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
    }
  ],
  "/v1/admin/keys/{id}/usage": [
    {
      "name": "id",
      "required": true,
      "in": "path",
      "description": "The key id",
      "schema": {
        "type": "string",
        "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
      },
      "example": "2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b"
    }
  ],
  "/v1/api/companies": [
    {
      "name": "sort",
      "required": false,
      "in": "query",
      "description": "field, -field, field:asc or field:desc with field one of name, slug, category, employees, created_at, updated_at. employees sorts bands by their lower bound.",
      "schema": {
        "pattern": "^(-?(name|slug|category|employees|created_at|updated_at)|(name|slug|category|employees|created_at|updated_at):(asc|desc))$",
        "default": "name:asc",
        "type": "string"
      },
      "example": "-employees"
    },
    {
      "name": "page",
      "required": false,
      "in": "query",
      "description": "Page number, from 1",
      "schema": {
        "minimum": 1,
        "default": 1,
        "type": "integer"
      }
    },
    {
      "name": "limit",
      "required": false,
      "in": "query",
      "description": "Companies per page",
      "schema": {
        "minimum": 1,
        "maximum": 100,
        "default": 20,
        "type": "integer"
      }
    },
    {
      "name": "employees",
      "required": false,
      "in": "query",
      "description": "An exact size band, N+ or N-M; encode + as %2B",
      "schema": {
        "pattern": "^\\d+(\\+|-\\d+)$",
        "type": "string"
      },
      "example": "51-200"
    },
    {
      "name": "category",
      "required": false,
      "in": "query",
      "description": "One of the eight categories, in any case: Communication, Productivity, Development, Marketing, Sales, Customer Support, Finance, HR",
      "schema": {
        "type": "string"
      },
      "example": "communication"
    },
    {
      "name": "search",
      "required": false,
      "in": "query",
      "description": "Case-insensitive substring of the name or the slug",
      "schema": {
        "maxLength": 200,
        "type": "string"
      },
      "example": "chat"
    }
  ],
  "/v1/api/companies/{slug}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug, with its domain extension",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    },
    {
      "name": "include",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "pages"
        ]
      },
      "description": "pages: add the pricing page references of the company",
      "example": "pages"
    }
  ],
  "/v1/api/pages/{slug}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug means its primary page, or its only page; with several pages and no primary one the answer is 400, listing the composite slugs.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat"
    }
  ],
  "/v1/api/files/{slug}/versions": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug gives the files of all its pages, a composite slug those of one page.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    }
  ],
  "/v1/api/files/{slug}/version/{version}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug gives the files of all its pages, a composite slug those of one page.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    },
    {
      "name": "version",
      "required": true,
      "in": "path",
      "description": "YYYYMMDD, a real calendar date",
      "schema": {
        "type": "string",
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$"
      },
      "example": "20250104"
    }
  ],
  "/v1/api/files/{slug}/quarter/{quarter}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug gives the files of all its pages, a composite slug those of one page.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    },
    {
      "name": "quarter",
      "required": true,
      "in": "path",
      "description": "YYYYQ#, # from 1 to 4 (Q in either case)",
      "schema": {
        "type": "string",
        "pattern": "^[1-9]\\d{3}[Qq][1-4]$"
      },
      "example": "2025Q1"
    }
  ],
  "/v1/api/files/{slug}/month/{month}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug gives the files of all its pages, a composite slug those of one page.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    },
    {
      "name": "month",
      "required": true,
      "in": "path",
      "description": "YYYYM## or YYYYM# (M in either case) or YYYY##; month from 1 to 12",
      "schema": {
        "type": "string",
        "pattern": "^[1-9]\\d{3}([Mm](0?[1-9]|1[0-2])|(0[1-9]|1[0-2]))$"
      },
      "example": "2025M01"
    }
  ],
  "/v1/api/files/{slug}/week/{week}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug gives the files of all its pages, a composite slug those of one page.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    },
    {
      "name": "week",
      "required": true,
      "in": "path",
      "description": "YYYYW## (W in either case), 1 to 53; week 53 only in ISO years that have it",
      "schema": {
        "type": "string",
        "pattern": "^[1-9]\\d{3}[Ww](0?[1-9]|[1-4]\\d|5[0-3])$"
      },
      "example": "2025W01"
    }
  ],
  "/v1/api/files/{slug}/period/{period}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug gives the files of all its pages, a composite slug those of one page.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat.io"
    },
    {
      "name": "period",
      "required": true,
      "in": "path",
      "description": "A version YYYYMMDD, a quarter YYYYQ#, a month YYYYM## or YYYY##, or a week YYYYW##",
      "schema": {
        "type": "string",
        "pattern": "^[1-9]\\d{3}((0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])|[Qq][1-4]|[Mm](0?[1-9]|1[0-2])|(0[1-9]|1[0-2])|[Ww](0?[1-9]|[1-4]\\d|5[0-3]))$"
      },
      "example": "2025Q1"
    }
  ],
  "/v1/api/pricing/{slug}": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug means its primary page, or its only page; with several pages and no primary one the answer is 400, listing the composite slugs.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat"
    },
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Convert each charge's monthly equivalent into this currency (three letters, any case) at the exchange rate of the latest date on or before its version: each charge then carries converted (null without a rate)",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      }
    },
    {
      "name": "as_of",
      "required": false,
      "in": "query",
      "description": "A calendar date YYYYMMDD: the latest extraction on or before it (the pricing as it stood that day), such as 20250201; not with version or period",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      }
    },
    {
      "name": "period",
      "required": false,
      "in": "query",
      "description": "A quarter YYYYQ#, a week YYYYW##, a month YYYYM## or YYYY## (or a version YYYYMMDD): the earliest extraction within it, such as 2025Q1",
      "schema": {
        "pattern": "^[1-9]\\d{3}((0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])|[Qq][1-4]|[Mm](0?[1-9]|1[0-2])|(0[1-9]|1[0-2])|[Ww](0?[1-9]|[1-4]\\d|5[0-3]))$",
        "type": "string"
      }
    },
    {
      "name": "version",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD: the extraction of that scrape version",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20250104"
    }
  ],
  "/v1/api/pricing/{slug}/versions": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug means its primary page, or its only page; with several pages and no primary one the answer is 400, listing the composite slugs.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat"
    }
  ],
  "/v1/api/pricing/{slug}/series": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug means its primary page, or its only page; with several pages and no primary one the answer is 400, listing the composite slugs.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat"
    },
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Convert each charge's monthly equivalent into this currency (three letters, any case) at the exchange rate of the latest date on or before its version: each charge then carries converted (null without a rate)",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      },
      "example": "EUR"
    },
    {
      "name": "to",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD; default today (UTC)",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20260307"
    },
    {
      "name": "from",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD; default the page's first extraction (or to, when that is later)",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20250104"
    },
    {
      "name": "step",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "week",
          "month",
          "quarter"
        ]
      },
      "description": "The step between points; default month"
    }
  ],
  "/v1/api/pricing/{slug}/diff": [
    {
      "name": "slug",
      "required": true,
      "in": "path",
      "description": "The full company slug (acmechat.io), the company slug without its domain extension (acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over a composite reading. A company slug means its primary page, or its only page; with several pages and no primary one the answer is 400, listing the composite slugs.",
      "schema": {
        "type": "string",
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$"
      },
      "example": "acmechat"
    },
    {
      "name": "to",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD: a version with an extraction, the one compared to; default the latest",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20260307"
    },
    {
      "name": "from",
      "required": true,
      "in": "query",
      "description": "YYYYMMDD: a version with an extraction, the one compared from",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20250104"
    }
  ],
  "/v1/api/benchmarks": [
    {
      "name": "company",
      "required": false,
      "in": "query",
      "description": "A company slug: each of its pages' entry price and percentile rank",
      "schema": {
        "type": "string"
      },
      "example": "acmechat.io"
    },
    {
      "name": "as_of",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD: the extractions in force that day; default today (UTC)",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20260307"
    },
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Convert every charge into this currency (three letters, any case) before the lowest is taken: one group, and unconverted counts the pages left out for want of a rate",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      },
      "example": "USD"
    },
    {
      "name": "modality",
      "required": false,
      "in": "query",
      "description": "Count only charges whose pricing metric has one of these modalities, comma-separated",
      "schema": {
        "type": "string"
      },
      "example": "user_based"
    },
    {
      "name": "billing",
      "required": false,
      "in": "query",
      "description": "Count only charges of these billings, comma-separated",
      "schema": {
        "type": "string"
      },
      "example": "monthly_recurring_billed_monthly"
    },
    {
      "name": "employees",
      "required": false,
      "in": "query",
      "description": "Size bands of the pages' companies, comma-separated (encode + as %2B)",
      "schema": {
        "type": "string"
      },
      "example": "51-200"
    },
    {
      "name": "category",
      "required": false,
      "in": "query",
      "description": "Categories of the pages' companies, comma-separated, any case: Communication, Productivity, Development, Marketing, Sales, Customer Support, Finance, HR",
      "schema": {
        "type": "string"
      },
      "example": "communication"
    }
  ],
  "/v1/api/benchmarks/series": [
    {
      "name": "step",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "month",
          "quarter"
        ]
      },
      "description": "The step between points; default month"
    },
    {
      "name": "to",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD: the last point is the start of the step that contains it; default today (UTC)",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20260307"
    },
    {
      "name": "from",
      "required": true,
      "in": "query",
      "description": "YYYYMMDD: the first point is the start of the step that contains it",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20250104"
    },
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Convert every charge into this currency (three letters, any case) before the lowest is taken: one group per point",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      },
      "example": "USD"
    },
    {
      "name": "modality",
      "required": false,
      "in": "query",
      "description": "Count only charges whose pricing metric has one of these modalities, comma-separated",
      "schema": {
        "type": "string"
      },
      "example": "user_based"
    },
    {
      "name": "billing",
      "required": false,
      "in": "query",
      "description": "Count only charges of these billings, comma-separated",
      "schema": {
        "type": "string"
      },
      "example": "monthly_recurring_billed_monthly"
    },
    {
      "name": "employees",
      "required": false,
      "in": "query",
      "description": "Size bands of the pages' companies, comma-separated (encode + as %2B)",
      "schema": {
        "type": "string"
      },
      "example": "51-200"
    },
    {
      "name": "category",
      "required": false,
      "in": "query",
      "description": "Categories of the pages' companies, comma-separated, any case: Communication, Productivity, Development, Marketing, Sales, Customer Support, Finance, HR",
      "schema": {
        "type": "string"
      },
      "example": "communication"
    }
  ],
  "/v1/api/compare": [
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Convert into this currency (three letters, any case), charge by charge at the exchange rate of the latest date on or before the extraction's version: entry_price, each plan's lowest_monthly_equivalent, and each charge's converted (null without a rate)",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      },
      "example": "EUR"
    },
    {
      "name": "as_of",
      "required": false,
      "in": "query",
      "description": "YYYYMMDD: the extraction of each page in force that day (the latest on or before it); default today (UTC)",
      "schema": {
        "pattern": "^[1-9]\\d{3}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$",
        "type": "string"
      },
      "example": "20260307"
    },
    {
      "name": "slugs",
      "required": true,
      "in": "query",
      "description": "The pages to compare, 2 to 10, comma-separated, each once; the answer keeps their order. Each is read as the pricing route reads its slug: a full company slug (acmechat.io) or one without its domain extension (acmechat) means the company's primary page, or its only page; a composite slug (bytewatch.enterprise) names one page",
      "schema": {
        "maxLength": 3570,
        "type": "string"
      },
      "example": "acmechat,hubbly"
    }
  ],
  "/v1/api/changes": [
    {
      "name": "min_significance",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "minor",
          "moderate",
          "major"
        ]
      },
      "description": "Only changes of this significance or more: minor (every change), moderate (moderate and major) or major",
      "example": "moderate"
    },
    {
      "name": "event_type",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "plan_added",
          "plan_removed",
          "price_increased",
          "price_decreased",
          "charge_added",
          "charge_removed",
          "charge_changed",
          "discount_added",
          "discount_removed",
          "discount_changed"
        ]
      },
      "description": "Only changes of this type",
      "example": "price_increased"
    },
    {
      "name": "company",
      "required": false,
      "in": "query",
      "description": "Only the changes of this company (its full slug)",
      "schema": {
        "pattern": "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$",
        "type": "string"
      },
      "example": "acmechat.io"
    },
    {
      "name": "limit",
      "required": false,
      "in": "query",
      "description": "Changes per page",
      "schema": {
        "minimum": 1,
        "maximum": 500,
        "default": 100,
        "type": "integer"
      }
    },
    {
      "name": "since",
      "required": false,
      "in": "query",
      "description": "A next_cursor from an earlier answer (opaque)",
      "schema": {
        "pattern": "^[A-Za-z0-9_-]+$",
        "type": "string"
      },
      "example": "MC40Mi4w"
    }
  ],
  "/v1/api/plans": [
    {
      "name": "page",
      "required": false,
      "in": "query",
      "description": "Page number, from 1",
      "schema": {
        "minimum": 1,
        "default": 1,
        "type": "integer"
      }
    },
    {
      "name": "limit",
      "required": false,
      "in": "query",
      "description": "Plans per page",
      "schema": {
        "minimum": 1,
        "maximum": 100,
        "default": 20,
        "type": "integer"
      }
    },
    {
      "name": "sort",
      "required": false,
      "in": "query",
      "description": "company (the company's name), monthly (the plan's lowest monthly equivalent), either as -field or field:desc for descending",
      "schema": {
        "pattern": "^(-?(company|monthly)|(company|monthly):(asc|desc))$",
        "default": "company",
        "type": "string"
      },
      "example": "-monthly"
    },
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Convert into this currency (three letters, any case), such as EUR, each charge at the rate of the latest date on or before its version: min_monthly, max_monthly and the monthly sort compare converted figures, and each charge carries converted (null without a rate)",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      }
    },
    {
      "name": "max_plans",
      "required": false,
      "in": "query",
      "description": "The page has at most this many plans",
      "schema": {
        "minimum": 0,
        "maximum": 100,
        "type": "integer"
      }
    },
    {
      "name": "min_plans",
      "required": false,
      "in": "query",
      "description": "The page has at least this many plans",
      "schema": {
        "minimum": 0,
        "maximum": 100,
        "type": "integer"
      }
    },
    {
      "name": "max_monthly",
      "required": false,
      "in": "query",
      "description": "A charge's monthly equivalent is at most this, as min_monthly, such as 50",
      "schema": {
        "minimum": 0,
        "type": "number"
      }
    },
    {
      "name": "min_monthly",
      "required": false,
      "in": "query",
      "description": "A charge's monthly equivalent is at least this (in currency when given, else in the charge's own currency; compared before rounding), such as 10",
      "schema": {
        "minimum": 0,
        "type": "number"
      }
    },
    {
      "name": "price_currency",
      "required": false,
      "in": "query",
      "description": "A charge's own currency (ISO 4217, any case), such as USD. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      }
    },
    {
      "name": "usage_type",
      "required": false,
      "in": "query",
      "description": "usage_type of a charge, such as licensed. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      }
    },
    {
      "name": "modality",
      "required": false,
      "in": "query",
      "description": "Modality of a charge's pricing metric, such as user_based. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      }
    },
    {
      "name": "charge_type",
      "required": false,
      "in": "query",
      "description": "charge_type of a charge, such as per_unit or flat. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      }
    },
    {
      "name": "billing",
      "required": false,
      "in": "query",
      "description": "Billing of a charge, such as monthly_recurring_billed_monthly, monthly_recurring_billed_yearly, annual_recurring_billed_yearly. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      },
      "example": "monthly_recurring_billed_monthly"
    },
    {
      "name": "free_tier",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "true",
          "false"
        ]
      },
      "description": "true: plans with a charge billed freemium or priced 0; false: plans without one"
    },
    {
      "name": "add_on",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "true",
          "false"
        ]
      },
      "description": "true: add-on plans only; false: the others"
    },
    {
      "name": "discount_category",
      "required": false,
      "in": "query",
      "description": "The plan has a discount of this category, such as annual. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      }
    },
    {
      "name": "company",
      "required": false,
      "in": "query",
      "description": "Full company slugs. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      },
      "example": "acmechat.io"
    },
    {
      "name": "employees",
      "required": false,
      "in": "query",
      "description": "Exact size bands of the company, N+ or N-M (encode + as %2B). A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      }
    },
    {
      "name": "category",
      "required": false,
      "in": "query",
      "description": "Categories of the company, in any case: Communication, Productivity, Development, Marketing, Sales, Customer Support, Finance, HR. A comma list: any of its values matches.",
      "schema": {
        "type": "string"
      },
      "example": "communication"
    }
  ],
  "/v1/api/export/pricing": [
    {
      "name": "currency",
      "required": false,
      "in": "query",
      "description": "Three letters (ISO 4217, any case): each charge also carries converted (NDJSON), or the CSV gains converted_currency, converted_monthly_equivalent, rate and rate_date, such as EUR",
      "schema": {
        "pattern": "^[A-Za-z]{3}$",
        "type": "string"
      }
    },
    {
      "name": "limit",
      "required": false,
      "in": "query",
      "description": "Extractions per call (a CSV has a line per charge of each)",
      "schema": {
        "minimum": 1,
        "maximum": 10000,
        "default": 10000,
        "type": "integer"
      }
    },
    {
      "name": "since",
      "required": false,
      "in": "query",
      "description": "A cursor: the X-Next-Cursor of an earlier export, or a next_cursor of the change feed (opaque). Without it, from the first extraction",
      "schema": {
        "pattern": "^[A-Za-z0-9_-]+$",
        "type": "string"
      },
      "example": "MC40Mi45OTk5OTk5OTk"
    },
    {
      "name": "format",
      "required": false,
      "in": "query",
      "schema": {
        "type": "string",
        "enum": [
          "ndjson",
          "csv"
        ]
      },
      "description": "ndjson or csv. Without it, NDJSON, unless an Accept header names text/csv (before application/x-ndjson, if both)"
    }
  ]
} as const;
