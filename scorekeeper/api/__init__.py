"""The JSON API's OpenAPI document and the JSON Schemas of its bodies and answers."""
