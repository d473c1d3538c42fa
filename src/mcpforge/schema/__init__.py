"""JSON Schema: conversion from OpenAPI schemas, and bundling of definitions."""
