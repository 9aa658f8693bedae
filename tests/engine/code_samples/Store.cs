// Licensed to the .NET Foundation under one or more agreements.

using System;

namespace Example.Storage
{
    /// <summary>
    /// Stores documents by their identifier.
    /// </summary>
    public class DocumentStore : IStore
    {
        /// <summary>Saves a document.</summary>
        public void Save(Document doc)
        {
            Console.WriteLine(doc.Id);
        }

        public string Name { get; set; }
    }

    public interface IStore
    {
        void Save(Document doc);
    }

    public record Document(string Id);

    public class DocumentStoreTests
    {
        [Fact]
        public void SavesADocument()
        {
            new DocumentStore().Save(new Document("1"));
        }
    }
}
